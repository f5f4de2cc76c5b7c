import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * The oracle: JSON Schema 2020-12 as ajv checks it, with ajv-formats, told the binder's documented
 * differences: decimal multipleOf (`multipleOfPrecision` lets 0.3 pass for 0.1), no NaN or
 * Infinity (no JSON text holds one), and whole numbers within the safe range (docs/tools.md), written
 * into the schema as bounds on every node that allows integers and not other numbers.
 */
export function ajvOracle(): (schema: object, value: unknown) => { ok: boolean; errors: string } {
  const ajv = new Ajv2020({ strict: false, strictNumbers: true, allErrors: false, multipleOfPrecision: 9 });
  addFormats.default(ajv);
  const compiled = new Map<object, ReturnType<typeof ajv.compile>>();
  return (schema, value) => {
    let validate = compiled.get(schema);
    if (validate === undefined) {
      validate = ajv.compile(safeIntegers(schema) as object);
      compiled.set(schema, validate);
    }
    const ok = validate(value) as boolean;
    return { ok, errors: ok ? '' : ajv.errorsText(validate.errors) };
  };
}

/** Values, not schemas: never rewritten. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'example']);

function safeIntegers(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(safeIntegers);
  if (typeof node !== 'object' || node === null) return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) copy[key] = DATA_KEYWORDS.has(key) ? value : safeIntegers(value);
  const types = typeof copy.type === 'string' ? [copy.type] : Array.isArray(copy.type) ? copy.type : [];
  if (types.includes('integer') && !types.includes('number')) {
    copy.minimum = Math.max(typeof copy.minimum === 'number' ? copy.minimum : -Infinity, -Number.MAX_SAFE_INTEGER);
    copy.maximum = Math.min(typeof copy.maximum === 'number' ? copy.maximum : Infinity, Number.MAX_SAFE_INTEGER);
  }
  return copy;
}
