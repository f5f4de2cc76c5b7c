import { Ajv } from 'ajv';
import { defineTool } from '../src/index.js';
import { measure, printComparison } from './harness.js';

/** A 5-argument tool: the shape of a typical business tool. */
const input = {
  type: 'object',
  properties: {
    customer: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' },
    amount: { type: 'number', exclusiveMinimum: 0, maximum: 10000 },
    quantity: { type: 'integer', minimum: 1, maximum: 100 },
    currency: { type: 'string', enum: ['EUR', 'USD', 'GBP'] },
    tags: { type: 'array', items: { type: 'string', maxLength: 20 }, maxItems: 5 },
  },
  required: ['customer', 'amount', 'quantity', 'currency'],
} as const;

const tool = defineTool({ name: 'place_order', description: 'Places an order.', input, run: () => 'ok' });
// ajv compiles exactly the schema the model is shown (additionalProperties: false included).
const ajvValidate = new Ajv({ allErrors: false, strict: false }).compile(tool.inputSchema);

const valid = { customer: 'acme_42', amount: 129.5, quantity: 3, currency: 'EUR', tags: ['rush', 'gift'] };
const invalid = { customer: 'acme_42', amount: 129.5, quantity: 'three', currency: 'EUR', tags: ['rush'] };

export function benchBinder(): void {
  if (!tool.bind(valid).ok || !ajvValidate(valid)) throw new Error('the valid input must pass both validators');
  if (tool.bind(invalid).ok || ajvValidate(invalid)) throw new Error('the invalid input must fail both validators');

  printComparison(
    'Binder, valid input (5-argument tool)',
    measure('legate binder', () => tool.bind(valid).ok),
    measure('ajv (compiled, same schema)', () => ajvValidate(valid)),
    { ratio: 0.5, label: '>= 0.5x ajv' },
  );
  printComparison(
    'Binder, invalid input (legate builds the model-facing message; ajv its error objects)',
    measure('legate binder + message', () => !tool.bind(invalid).ok),
    measure('ajv (compiled, same schema)', () => !ajvValidate(invalid) && ajvValidate.errors!.length > 0),
  );
}
