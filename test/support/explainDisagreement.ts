import type { BindResult } from '../../src/tools/binder/createBinder.js';
import type { AjvOracle, ReadingDifference } from './ajvOracle.js';
import { ABSENCE_VARIANTS, absenceReading, type AbsenceRule } from './absentProperties.js';

/** The binder's intentional differences from JSON Schema (SCHEMA_SPEC.md), one name each. */
export type Difference = 'json-text' | 'depth' | AbsenceRule | ReadingDifference;

/** Inputs nested deeper than this many levels are refused before anything else (SCHEMA_SPEC.md, difference 4). */
export const DEPTH_LIMIT = 64;

export type Verdict =
  /** Binder and ajv agree. */
  | { kind: 'agree' }
  /** They disagree, and exactly these intentional differences account for it. */
  | { kind: 'explained'; differences: Difference[] }
  /** The input is not JSON (a NaN, an infinity, undefined): outside JSON Schema, so no oracle. */
  | { kind: 'not-json' }
  | { kind: 'unexplained'; why: string };

/**
 * Compares the binder's verdict on an input with ajv's and, where they differ, finds the
 * intentional differences that account for it: each is recognised by re-asking the oracle with
 * that difference applied and seeing it agree with the binder: the input parsed from JSON text;
 * deeper than 64 levels and refused as too_deep; nulls read as absent and required properties left
 * out given their defaults (the input rewritten); multipleOf read as decimals, legate's format
 * checks, integers only within ±(2^53 - 1) (the schema read so). The fewest differences that
 * explain it are reported. Anything else is unexplained.
 */
export function explainDisagreement(
  oracle: AjvOracle,
  schema: unknown,
  input: unknown,
  bound: BindResult<unknown>,
  /** ajv's verdict on the input as it is, already asked. */
  ajvAccepts: boolean,
): Verdict {
  const code = bound.ok ? undefined : bound.invalid.code;
  const refusal = bound.ok ? 'accepted' : `refused with ${code}`;
  let value = input;
  const differences: Difference[] = [];
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input) as unknown;
      differences.push('json-text');
    } catch {
      if (code !== 'not_parsable') return { kind: 'unexplained', why: `text that is not JSON was ${refusal}` };
      return ajvAccepts ? { kind: 'unexplained', why: 'ajv accepted a string at the root' } : { kind: 'agree' };
    }
  }
  const deep = nestsBeyond(value, DEPTH_LIMIT);
  if (deep) {
    if (code !== 'too_deep')
      return { kind: 'unexplained', why: `an input deeper than ${DEPTH_LIMIT} levels was ${refusal}` };
    return ajvAccepts ? { kind: 'explained', differences: [...differences, 'depth'] } : { kind: 'agree' };
  }
  if (code === 'too_deep')
    return { kind: 'unexplained', why: `an input within ${DEPTH_LIMIT} levels was refused as too deep` };
  if (ajvAccepts === bound.ok) return { kind: 'agree' };
  // JSON Schema speaks of JSON values: a NaN or an infinity (never on the wire) has no oracle.
  if (!isJson(value)) return { kind: 'not-json' };
  if (differences.length > 0 && oracle.accepts(value) === bound.ok) return { kind: 'explained', differences };
  // The fewest differences first; among as many, the input rewritten before the schema re-read
  // (a reading compiles the schema anew). Each rewriting is made once, when first needed.
  const rewritten = new Map<number, unknown>();
  const rewrite = (index: number) => {
    if (!rewritten.has(index)) rewritten.set(index, absenceReading(schema, oracle, value, ABSENCE_VARIANTS[index]!));
    return rewritten.get(index);
  };
  for (let size = 1; size <= 5; size++) {
    for (let index = 0; index < ABSENCE_VARIANTS.length; index++) {
      const rules = ABSENCE_VARIANTS[index]!.rules;
      if (rules.length > size) continue;
      for (const reading of [[], ...READINGS].filter((r) => r.length === size - rules.length)) {
        const candidate = rewrite(index);
        if (candidate !== undefined && oracle.accepts(candidate, reading) === bound.ok)
          return { kind: 'explained', differences: [...differences, ...rules, ...reading] };
      }
    }
    for (const reading of READINGS.filter((r) => r.length === size)) {
      if (oracle.accepts(value, reading) === bound.ok)
        return { kind: 'explained', differences: [...differences, ...reading] };
    }
  }
  return { kind: 'unexplained', why: 'no intentional difference accounts for it' };
}

/** Every non-empty combination of the reading differences, fewest first: the simplest explanation wins. */
const READINGS: ReadingDifference[][] = (() => {
  const all: ReadingDifference[] = ['safe-integers', 'decimal-multipleOf', 'legate-formats'];
  const subsets = Array.from({ length: 2 ** all.length - 1 }, (_, i) => all.filter((_, bit) => ((i + 1) >> bit) & 1));
  return subsets.sort((a, b) => a.length - b.length);
})();

/** Whether arrays and objects nest deeper than `limit` levels (`{}` is one). Stops at the limit, whatever the depth. */
export function nestsBeyond(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (limit === 0) return true;
  for (const item of Array.isArray(value) ? value : Object.values(value)) if (nestsBeyond(item, limit - 1)) return true;
  return false;
}

/** Whether a value is JSON: nothing but JSON's types, no NaN, no infinity. */
export function isJson(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return true;
  if (typeof value !== 'object') return false;
  for (const item of Array.isArray(value) ? value : Object.values(value)) if (!isJson(item)) return false;
  return true;
}
