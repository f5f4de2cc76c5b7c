import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * The oracle: JSON Schema 2020-12 as ajv checks it, with ajv-formats. `multipleOfPrecision` lets
 * decimal multiples through (0.3 of 0.1), the binder's intentional difference from float division.
 */
export function ajvOracle(): (schema: object, value: unknown) => { ok: boolean; errors: string } {
  // strictNumbers: NaN and Infinity are not JSON numbers (no JSON text holds one); the binder refuses them.
  const ajv = new Ajv2020({ strict: false, strictNumbers: true, allErrors: false, multipleOfPrecision: 9 });
  addFormats.default(ajv);
  const compiled = new Map<object, ReturnType<typeof ajv.compile>>();
  return (schema, value) => {
    let validate = compiled.get(schema);
    if (validate === undefined) {
      validate = ajv.compile(schema);
      compiled.set(schema, validate);
    }
    const ok = validate(value) as boolean;
    return { ok, errors: ok ? '' : ajv.errorsText(validate.errors) };
  };
}
