import { canonicalJson } from '../../json/canonicalJson.js';
import { describeValue } from '../../json/describeValue.js';
import { isMultipleOf } from '../binder/isMultipleOf.js';
import { JSON_TYPES, KEYWORDS } from './schemaKeywords.js';

type Schema = Record<string, unknown>;

/** Why two schemas cannot be one: the keyword (with its path below the merged node) and the words. */
class MergeConflict {
  constructor(
    readonly at: string,
    readonly problem: string,
  ) {}

  below(prefix: string): MergeConflict {
    return new MergeConflict(`${prefix}.${this.at}`, this.problem);
  }
}

const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains'];
const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains'];

/**
 * `allOf: [a, b]` as one schema: a value passes the result exactly when it passes both (for the
 * keywords below), so the model is shown one object rather than parts to combine. Annotations
 * of `a` win. Returns a conflict where the two cannot be written as one.
 */
export function mergeSchemas(a: Schema, b: Schema): Schema | MergeConflict {
  const merged: Schema = { ...a };
  for (const [keyword, right] of Object.entries(b)) {
    if (!(keyword in merged)) {
      merged[keyword] = right;
      continue;
    }
    const left = merged[keyword];
    const role = KEYWORDS[keyword]?.role;
    if (role !== 'checked' || keyword === 'default') continue; // an annotation: the first one written wins
    const result = mergeKeyword(keyword, left, right);
    if (isConflict(result)) return result;
    merged[keyword] = result;
  }
  if (Array.isArray(merged.type) && merged.type.length === 1) merged.type = merged.type[0];
  return merged;
}

export function isConflict(value: unknown): value is MergeConflict {
  return value instanceof MergeConflict;
}

function mergeKeyword(keyword: string, left: unknown, right: unknown): unknown {
  const same = canonicalJson(left) === canonicalJson(right);
  if (same) return left;
  const conflict = (problem: string) => new MergeConflict(keyword, problem);
  if (LOWER.includes(keyword) && typeof left === 'number' && typeof right === 'number') return Math.max(left, right);
  if (UPPER.includes(keyword) && typeof left === 'number' && typeof right === 'number') return Math.min(left, right);
  switch (keyword) {
    case 'type': {
      // 'integer' is the part of 'number' that is whole: their intersection is 'integer'.
      const allows = (side: unknown, t: string) =>
        typesIn(side).includes(t) || (t === 'integer' && typesIn(side).includes('number'));
      const types = JSON_TYPES.filter((t) => allows(left, t) && allows(right, t)).filter(
        (t, _, all) => !(t === 'integer' && all.includes('number')),
      );
      if (types.length === 0)
        return conflict(
          `the parts want different types (${describeValue(left)} and ${describeValue(right)}), ` +
            'so no value could pass both',
        );
      return types.length === 1 ? types[0] : types;
    }
    case 'required':
      return [...new Set([...(left as string[]), ...(right as string[])])];
    case 'enum':
    case 'const': {
      const l = keyword === 'const' ? [left] : (left as unknown[]);
      const r = new Set((keyword === 'const' ? [right] : (right as unknown[])).map((v) => canonicalJson(v)));
      const both = l.filter((v) => r.has(canonicalJson(v)));
      if (both.length === 0)
        return conflict(`the parts allow no value in common (${describeValue(left)} and ${describeValue(right)})`);
      return keyword === 'const' ? both[0] : both;
    }
    case 'multipleOf': {
      const [x, y] = [left as number, right as number];
      if (isMultipleOf(x, y)) return x;
      if (isMultipleOf(y, x)) return y;
      return conflict(`the parts want multiples of ${x} and of ${y}; write one multipleOf that is a multiple of both`);
    }
    case 'uniqueItems':
      return left === true || right === true;
    case 'properties':
    case 'patternProperties':
    case '$defs':
    case 'definitions': {
      const result: Schema = { ...(left as Schema) };
      for (const [name, schema] of Object.entries(right as Schema)) {
        if (!(name in result)) {
          result[name] = schema;
          continue;
        }
        const inner = mergeSubschemas(result[name], schema);
        if (isConflict(inner)) return inner.below(`${keyword}.${name}`);
        result[name] = inner;
      }
      return result;
    }
    case 'items':
    case 'additionalProperties':
    case 'propertyNames':
    case 'contains': {
      const inner = mergeSubschemas(left, right);
      return isConflict(inner) ? inner.below(keyword) : inner;
    }
    case 'prefixItems': {
      const [l, r] = [left as unknown[], right as unknown[]];
      if (l.length !== r.length) return conflict('the parts give tuples of different lengths');
      const items: unknown[] = [];
      for (let i = 0; i < l.length; i++) {
        const inner = mergeSubschemas(l[i], r[i]);
        if (isConflict(inner)) return inner.below(`${keyword}.${i}`);
        items.push(inner);
      }
      return items;
    }
    default:
      return conflict(
        `the parts each have a different '${keyword}', which legate cannot write as one; keep it in one part only`,
      );
  }
}

/** Merges two subschemas, booleans included (`false` wins, `true` yields). */
function mergeSubschemas(left: unknown, right: unknown): unknown {
  if (left === false || right === false) return false;
  if (left === true) return right;
  if (right === true) return left;
  return mergeSchemas(left as Schema, right as Schema);
}

function typesIn(type: unknown): string[] {
  return Array.isArray(type) ? (type as string[]) : [type as string];
}
