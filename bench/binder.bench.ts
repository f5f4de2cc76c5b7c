import { Ajv } from 'ajv';
import { invalidOrder, placeOrder, validOrder } from './placeOrder.js';
import { measure, printComparison } from './harness.js';

// ajv compiles exactly the schema the model is shown (additionalProperties: false included).
const tool = placeOrder;
const ajvValidate = new Ajv({ allErrors: false, strict: false }).compile(tool.inputSchema);

const valid = validOrder;
const invalid = invalidOrder;

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
