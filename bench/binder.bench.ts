import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { freeFormApnSettings, setApnSettings, validApnSettings } from './apnSettings.js';
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
  benchRealWorld();
}

/**
 * The binder on a real-world schema (nullable unions, `$ref`s into `$defs`, a free-form object), beside ajv
 * compiled in the same run from the same published schema, as JSON Schema 2020-12 with its formats.
 */
function benchRealWorld(): void {
  const tool = setApnSettings();
  const ajv = new Ajv2020({ allErrors: false, strict: false });
  addFormats.default(ajv);
  const validate = ajv.compile(tool.inputSchema);
  for (const input of [validApnSettings, freeFormApnSettings])
    if (!tool.bind(input).ok || !validate(input))
      throw new Error(`both validators must accept ${JSON.stringify(input)}`);

  printComparison(
    'Binder, valid input (real-world schema: nullable unions, $ref, free-form object)',
    measure('legate binder', () => tool.bind(validApnSettings).ok),
    measure('ajv 2020 (compiled, same schema)', () => validate(validApnSettings)),
    { ratio: 0.5, label: '>= 0.5x ajv' },
  );
  printComparison(
    'Binder, valid input taking the free-form alternative (the $ref alternative refuses it first)',
    measure('legate binder', () => tool.bind(freeFormApnSettings).ok),
    measure('ajv 2020 (compiled, same schema)', () => validate(freeFormApnSettings)),
  );
}
