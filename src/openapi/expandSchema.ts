import { isPlainObject } from '../json/jsonValue.js';
import type { InputBudget } from './inputBudget.js';

/** A `$ref` the parser left unresolved: one to another file or a URL, which legate never fetches. */
export class UnresolvedRef extends Error {
  constructor(readonly ref: string) {
    super(ref);
  }
}

/** An expansion past {@link MAX_INPUT_SCHEMA_NODES}: shared types nested so often that the copy would not end. */
export class ExpansionTooLarge extends Error {}

/** A value (a `default`, an `example`, an `enum`) that contains itself through a `$ref`: no JSON holds it. */
export class SelfContainingValue extends Error {
  constructor(readonly keyword: string) {
    super(keyword);
  }
}

/**
 * JSON values (objects, arrays, strings, numbers, booleans, nulls) one operation's input schema may
 * have, written out: its parameters and its body together. Shared types used several times at each of
 * many levels multiply (three uses over 30 levels is 3^30 copies): past this, the operation is skipped.
 */
export const MAX_INPUT_SCHEMA_NODES = 20_000;

/** The count of JSON values one operation's input has expanded to so far, shared by its parameters and body. */
export class ExpansionBudget {
  #nodes = 0;

  /** `total`: what the inputs of all the operations may cost together, each value spent from it too. */
  constructor(readonly total: InputBudget) {}

  /** Counts one more value; throws {@link ExpansionTooLarge} past {@link MAX_INPUT_SCHEMA_NODES}. */
  count(): void {
    this.total.spend(1);
    if (++this.#nodes > MAX_INPUT_SCHEMA_NODES) throw new ExpansionTooLarge();
  }
}

/** What a type that contains itself becomes where it recurs. */
const RECURSION = Object.freeze({
  type: 'object',
  description: 'Recursive: the same type as an enclosing value, not expanded here (any object).',
});

/** OpenAPI's own keywords beside JSON Schema's: documentation for other tools, nothing the binder checks. */
const DROPPED = new Set(['discriminator', 'xml', 'externalDocs']);
/** Keywords whose values are data, never schemas: copied as they are. */
const VALUES = new Set(['enum', 'const', 'example', 'examples', 'required']);

/**
 * A self-contained copy of a dereferenced schema: shared parts copied where they are used, a
 * schema met again inside itself replaced by an open object ({@link RECURSION}), OpenAPI-only
 * keywords and `x-` extensions dropped, and a `default` said in the description instead
 * ({@link defaultNote}): the binder fills in a default it is given, and the API applies its own, so
 * what is sent is what the model sent. `description` is the schema's when it has none of its own (a
 * parameter's, a body's). Every value of the copy is counted on `budget`. Throws
 * {@link UnresolvedRef} at a `$ref` still in place, {@link ExpansionTooLarge} past the budget, and
 * {@link SelfContainingValue} for data that contains itself.
 */
export function expandSchema(schema: unknown, budget: ExpansionBudget, description?: unknown): unknown {
  return expand(schema, new Set(), budget, typeof description === 'string' ? description : undefined);
}

/** `description`: the top schema's when it has none of its own (a parameter's, a body's). */
function expand(schema: unknown, within: Set<object>, budget: ExpansionBudget, description?: string): unknown {
  if (Array.isArray(schema)) {
    budget.count();
    return schema.map((item) => expand(item, within, budget));
  }
  if (!isPlainObject(schema)) {
    budget.count();
    return schema;
  }
  if (within.has(schema)) return copyData(RECURSION, new Set(), budget, 'RECURSION');
  if (typeof schema.$ref === 'string') throw new UnresolvedRef(schema.$ref);
  budget.count();
  within.add(schema);
  try {
    const copy: Record<string, unknown> = {};
    if (description !== undefined && typeof schema.description !== 'string') {
      budget.count();
      copy.description = description;
    }
    let note: string | undefined;
    for (const [key, value] of Object.entries(schema)) {
      if (DROPPED.has(key) || key.startsWith('x-')) continue;
      if (key === 'default') note = defaultNote(copyData(value, new Set(), budget, key));
      else if (VALUES.has(key)) copy[key] = copyData(value, new Set(), budget, key);
      else if (key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'definitions') {
        budget.count();
        copy[key] = isPlainObject(value)
          ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, expand(sub, within, budget)]))
          : copyData(value, new Set(), budget, key);
      } else copy[key] = expand(value, within, budget);
    }
    if (note !== undefined)
      copy.description = typeof copy.description === 'string' ? `${copy.description}\n${note}` : note;
    return copy;
  } finally {
    within.delete(schema);
  }
}

/** What the description says of a default the document declares: the value the API takes when none is sent. */
function defaultNote(value: unknown): string {
  return `When left out, the API uses ${JSON.stringify(value)}.`;
}

/** A copy of data, each value counted (a part shared by several places is copied, and counted, at each). */
function copyData(value: unknown, within: Set<object>, budget: ExpansionBudget, keyword: string): unknown {
  budget.count();
  if (typeof value !== 'object' || value === null) return value;
  if (within.has(value)) throw new SelfContainingValue(keyword);
  within.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => copyData(item, within, budget, keyword));
    const copy: Record<string, unknown> = {};
    // defineProperty: a key such as __proto__ stays an own property of the copy, as it was of the value.
    for (const [key, member] of Object.entries(value))
      Object.defineProperty(copy, key, {
        value: copyData(member, within, budget, keyword),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return copy;
  } finally {
    within.delete(value);
  }
}
