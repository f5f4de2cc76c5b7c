import { Agent, defineTool, type Transport } from '../../src/index.js';

interface Order {
  id: string;
  status: 'processing' | 'shipped' | 'delivered';
  items: string[];
  placedOn: string;
}

const ORDERS: Record<string, Order> = {
  'A-1001': { id: 'A-1001', status: 'shipped', items: ['kettle', 'tea tin'], placedOn: '2026-11-20' },
  'A-1002': { id: 'A-1002', status: 'processing', items: ['desk lamp'], placedOn: '2026-11-27' },
};

/** Reads an order, stamped with the run's clock (`ctx.now()`), which a replay serves from the recording. */
export const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Looks up an order by its id (e.g. A-1001) and returns its status and items.',
  input: {
    type: 'object',
    properties: { orderId: { type: 'string', pattern: '^[A-Z]-[0-9]{4}$', description: 'The order id, e.g. A-1001.' } },
    required: ['orderId'],
  },
  annotations: { title: 'Look up an order', readOnly: true, openWorld: false },
  maxResultLength: 2000,
  run: ({ orderId }, ctx) => {
    const order = ORDERS[orderId];
    return order === undefined
      ? { found: false, orderId, checkedAt: ctx.now().toISOString() }
      : { found: true, ...order, checkedAt: ctx.now().toISOString() };
  },
});

/** A support agent that answers questions about orders. */
export function createOrderDesk(transport: Transport): Agent {
  return new Agent({
    name: 'order_desk',
    model: 'claude-haiku-5-5',
    system: "You answer customers' questions about their orders. Look orders up; never guess their status.",
    tools: [lookupOrder],
    transport,
    maxTurns: 5,
    maxTokens: 1024,
  });
}
