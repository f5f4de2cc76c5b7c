import { defineTool } from 'legate';

/** A 5-argument tool, the shape of a typical business tool: the benchmarks' common subject. */
export const placeOrder = defineTool({
  name: 'place_order',
  description: 'Places an order.',
  input: {
    type: 'object',
    properties: {
      customer: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' },
      amount: { type: 'number', exclusiveMinimum: 0, maximum: 10000 },
      quantity: { type: 'integer', minimum: 1, maximum: 100 },
      currency: { type: 'string', enum: ['EUR', 'USD', 'GBP'] },
      tags: { type: 'array', items: { type: 'string', maxLength: 20 }, maxItems: 5 },
    },
    required: ['customer', 'amount', 'quantity', 'currency'],
  },
  run: () => 'ok',
});

export const validOrder = { customer: 'acme_42', amount: 129.5, quantity: 3, currency: 'EUR', tags: ['rush', 'gift'] };
export const invalidOrder = { customer: 'acme_42', amount: 129.5, quantity: 'three', currency: 'EUR', tags: ['rush'] };
