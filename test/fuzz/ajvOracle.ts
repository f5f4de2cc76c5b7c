import { AjvOracle } from '../support/ajvOracle.js';

/**
 * The suite's oracle (test/support/ajvOracle.ts) as the arbitraries' tests read it: JSON Schema
 * 2020-12 by ajv with ajv-formats, with the binder's differences in how a schema reads that the
 * arbitraries follow (multipleOf on decimals, integers within ±(2^53 - 1)). A number that is not
 * finite is no JSON value, so no schema takes an input holding one.
 */
export function ajvOracle(): (schema: Record<string, unknown>, value: unknown) => boolean {
  const oracles = new Map<object, AjvOracle>();
  return (schema, value) => {
    let oracle = oracles.get(schema);
    if (oracle === undefined) {
      oracle = new AjvOracle(schema);
      oracles.set(schema, oracle);
    }
    return isJson(value) && oracle.accepts(value, ['decimal-multipleOf', 'safe-integers']);
  };
}

function isJson(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || value === null) return true;
  return Object.values(value).every(isJson);
}
