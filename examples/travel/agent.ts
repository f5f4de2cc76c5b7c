import { Agent, defineTool, type Transport } from '../../src/index.js';

const bookingInput = {
  type: 'object',
  properties: { reference: { type: 'string' } },
  required: ['reference'],
} as const;

/** What the travel tools did and undid, for the example's test to read. */
export const ledger: string[] = [];

export const bookRoom = defineTool({
  name: 'book_room',
  description: 'Books a hotel room.',
  input: bookingInput,
  compensatedBy: 'cancel_room',
  run: ({ reference }) => {
    ledger.push(`booked room ${reference}`);
    return `Room ${reference} booked.`;
  },
});

export const cancelRoom = defineTool({
  name: 'cancel_room',
  description: 'Cancels a hotel room booking.',
  input: bookingInput,
  run: ({ reference }) => {
    ledger.push(`cancelled room ${reference}`);
    return `Room ${reference} cancelled.`;
  },
});

export const bookFlight = defineTool({
  name: 'book_flight',
  description: 'Books a flight.',
  input: bookingInput,
  compensatedBy: 'cancel_flight',
  run: ({ reference }) => {
    ledger.push(`booked flight ${reference}`);
    return `Flight ${reference} booked.`;
  },
});

export const cancelFlight = defineTool({
  name: 'cancel_flight',
  description: 'Cancels a flight booking.',
  input: bookingInput,
  run: ({ reference }) => {
    ledger.push(`cancelled flight ${reference}`);
    return `Flight ${reference} cancelled.`;
  },
});

/** A travel agent whose bookings can be undone with `agent.compensate(result)`. */
export function createTravelAgent(transport: Transport): Agent {
  return new Agent({
    name: 'travel',
    model: 'claude-haiku-5-5',
    system: 'You book trips: rooms and flights.',
    tools: [bookRoom, cancelRoom, bookFlight, cancelFlight],
    transport,
    maxTurns: 6,
  });
}
