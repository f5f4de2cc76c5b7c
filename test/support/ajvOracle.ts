import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { FORMAT_CHECKS } from '../../src/tools/schema/formats.js';
import { isDecimalMultiple } from './decimalMultiple.js';
import { SAFE_INTEGER_KEYWORD, withSafeIntegers } from './withSafeIntegers.js';

/** The binder's intentional differences from JSON Schema that change how a schema reads (SCHEMA_SPEC.md). */
export type ReadingDifference = 'decimal-multipleOf' | 'legate-formats' | 'safe-integers';

/**
 * ajv (`Ajv2020`, ajv-formats, `strict: false`) compiled from a published schema: the test's
 * oracle. The plain reading is JSON Schema 2020-12; a reading may swap in some of the binder's
 * intentional differences (multipleOf on decimals, legate's format checks, integers only within
 * ±(2^53 - 1)), so a disagreement can be traced to exactly those. Readings compile when first used.
 */
export class AjvOracle {
  private readonly readings = new Map<string, ValidateFunction>();
  private readonly subschemas = new Map<string, ValidateFunction>();
  /** Whether the node at a pointer accepts null, per pointer: asked at every null the input holds. */
  private readonly acceptsNull = new Map<string, boolean>();
  private readonly subschemaAjv: Ajv2020;

  /** Throws ajv's own error when ajv cannot compile the schema. */
  constructor(private readonly schema: Record<string, unknown>) {
    this.reading([]);
    this.subschemaAjv = newAjv([]);
    this.subschemaAjv.addSchema(schema, ROOT);
  }

  /** ajv's verdict on a value, as JSON Schema reads the schema, or with the given differences. */
  accepts(value: unknown, differences: readonly ReadingDifference[] = []): boolean {
    return this.reading(differences)(value) === true;
  }

  /** Whether the schema node at a JSON pointer (into the published schema) accepts a value, as JSON Schema says. */
  nodeAccepts(pointer: readonly (string | number)[], value: unknown): boolean {
    if (value === null) {
      const key = pointer.join('\u0001');
      let accepts = this.acceptsNull.get(key);
      if (accepts === undefined) {
        accepts = this.validatorAt(pointer)(null) === true;
        this.acceptsNull.set(key, accepts);
      }
      return accepts;
    }
    return this.validatorAt(pointer)(value) === true;
  }

  private validatorAt(pointer: readonly (string | number)[]): ValidateFunction {
    const fragment = pointer.map((key) => encodeURIComponent(String(key).replace(/~/g, '~0').replace(/\//g, '~1')));
    const ref = `${ROOT}#${fragment.length === 0 ? '' : `/${fragment.join('/')}`}`;
    let validate = this.subschemas.get(ref);
    if (validate === undefined) {
      validate = this.subschemaAjv.compile({ $ref: ref });
      this.subschemas.set(ref, validate);
    }
    return validate;
  }

  private reading(differences: readonly ReadingDifference[]): ValidateFunction {
    const key = [...differences].sort().join('+');
    let validate = this.readings.get(key);
    if (validate === undefined) {
      const schema = differences.includes('safe-integers') ? withSafeIntegers(this.schema) : this.schema;
      validate = newAjv(differences).compile(schema);
      this.readings.set(key, validate);
    }
    return validate;
  }
}

/** Where the published schema is registered, for pointers into it. */
const ROOT = 'https://legate.invalid/published-schema.json';

function newAjv(differences: readonly ReadingDifference[]): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false });
  // A CommonJS module: its default import is module.exports, which carries the plugin as `default`.
  addFormats.default(ajv);
  if (differences.includes('decimal-multipleOf')) {
    ajv.removeKeyword('multipleOf');
    ajv.addKeyword({
      keyword: 'multipleOf',
      type: 'number',
      schemaType: 'number',
      validate: (divisor: number, data: number) => isDecimalMultiple(data, divisor),
    });
  }
  if (differences.includes('legate-formats')) {
    for (const [name, check] of FORMAT_CHECKS) ajv.addFormat(name, { type: 'string', validate: check });
  }
  if (differences.includes('safe-integers')) {
    ajv.addKeyword({
      keyword: SAFE_INTEGER_KEYWORD,
      schemaType: 'boolean',
      validate: (_: boolean, data: unknown) =>
        typeof data !== 'number' || !Number.isInteger(data) || Number.isSafeInteger(data),
    });
  }
  return ajv;
}
