import { Agent, defineTool, type Transport } from '../../src/index.js';

export const wireMoney = defineTool({
  name: 'wire_money',
  description: 'Wires money to a supplier.',
  input: {
    type: 'object',
    properties: { supplier: { type: 'string' }, amount: { type: 'number', exclusiveMinimum: 0 } },
    required: ['supplier', 'amount'],
  },
  privileged: true,
  annotations: { destructive: true },
  run: ({ supplier, amount }) => `Wired $${amount} to ${supplier}.`,
});

/** A treasurer whose privileged calls wait for a person's approval. */
export function createTreasurer(transport: Transport): Agent {
  return new Agent({
    name: 'treasurer',
    model: 'claude-haiku-5-5',
    system: 'You pay suppliers when asked.',
    tools: [wireMoney],
    approvalRequired: (tool) => tool.privileged,
    transport,
    maxTurns: 4,
  });
}
