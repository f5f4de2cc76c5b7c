import { jsonValueCount } from '../../json/jsonValueCount.js';
import { isPlainObject } from '../../json/jsonValue.js';
import { closeObject } from './closeObject.js';
import { isConflict, mergeSchemas } from './mergeSchemas.js';
import { KEYWORDS } from './schemaKeywords.js';
import { declarationPath, parseLocalRef } from './schemaPointer.js';
import type { SchemaProblems } from './schemaProblems.js';

type Schema = Record<string, unknown>;

/**
 * Checked keywords that constrain no value beside them (definitions, a default): never moved into a union's
 * alternatives, nor counted as checks beside a `$ref`.
 */
const DEFINITIONS = new Set(['$defs', 'definitions', 'default']);
/**
 * How many JSON values moving constraints into unions' alternatives may copy in one schema: far beyond any real
 * schema (GitHub's and Stripe's largest request bodies hold a few thousand values), and a bound on the time and
 * memory a small schema whose nested unions multiply (3 alternatives under 3 properties, 7 levels) can take.
 */
const MAX_COPIED_VALUES = 100_000;

/**
 * Merges the parts of one schema document's nodes into each node, as legate publishes them: `allOf` merged into its
 * node, a `$ref` with constraints beside it merged with its target, constraints beside `anyOf`/`oneOf` moved into
 * every alternative (the values copied for that counted over the whole document, and bounded).
 */
export class PartMerger {
  readonly #problems: SchemaProblems;
  /** The normalised schema at a pointer's tokens; undefined for a target that contains the node being merged. */
  readonly #target: (tokens: string[]) => unknown;
  /** How many JSON values were copied into the alternatives of unions so far (see {@link MAX_COPIED_VALUES}). */
  #copied = 0;

  constructor(problems: SchemaProblems, target: (tokens: string[]) => unknown) {
    this.#problems = problems;
    this.#target = target;
  }

  /**
   * `allOf` merged into its node; a `$ref` with constraints beside it merged with its target;
   * constraints beside `anyOf`/`oneOf` moved into every alternative.
   */
  merge(schema: Schema, tokens: string[], open: boolean): Schema | boolean {
    const path = declarationPath(tokens);
    let merged: Schema = schema;
    if (Array.isArray(schema.allOf)) {
      const { allOf, ...rest } = schema;
      merged = rest;
      for (const [i, part] of (allOf as unknown[]).entries()) {
        const content = this.#content(part, `${path}.allOf.${i}`);
        if (content === undefined) return true;
        if (content === false) return false;
        if (content === true) continue;
        const result = mergeSchemas(merged, content);
        if (isConflict(result)) {
          this.#problems.add(`${path}.allOf.${i}.${result.at}`, 'unsupported_schema', `${result.problem}.`);
          return true;
        }
        merged = result;
      }
    }
    if (typeof merged.$ref === 'string' && hasChecks(merged, ['$ref'])) {
      const { $ref, ...rest } = merged;
      const content = this.#content({ $ref }, `${path}.$ref`);
      if (content === undefined || typeof content === 'boolean') return content ?? true;
      const result = mergeSchemas(rest, content);
      if (isConflict(result)) {
        this.#problems.add(`${path}.${result.at}`, 'unsupported_schema', `${result.problem}.`);
        return true;
      }
      merged = result;
    }
    if (Array.isArray(merged.anyOf) && Array.isArray(merged.oneOf)) {
      this.#problems.add(
        `${path}.oneOf`,
        'unsupported_schema',
        "a schema may have 'anyOf' or 'oneOf', not both; nest one inside the other's alternatives.",
      );
      return true;
    }
    const union = Array.isArray(merged.anyOf) ? 'anyOf' : Array.isArray(merged.oneOf) ? 'oneOf' : undefined;
    if (union === undefined || !hasChecks(merged, [union])) return merged;
    const siblings: Schema = {};
    const kept: Schema = {};
    for (const [keyword, value] of Object.entries(merged)) {
      if (keyword !== union && KEYWORDS[keyword]?.role === 'checked' && !DEFINITIONS.has(keyword))
        siblings[keyword] = value;
      else kept[keyword] = value;
    }
    // Each alternative gets a copy of the constraints beside the union: unions nested in those constraints multiply,
    // so a schema of a few hundred bytes can stand for millions of values. The copies made are counted, and bounded.
    if (this.#copied > MAX_COPIED_VALUES) return true; // said once, where the bound was passed
    this.#copied += jsonValueCount(siblings, MAX_COPIED_VALUES) * (merged[union] as unknown[]).length;
    if (this.#copied > MAX_COPIED_VALUES) {
      this.#problems.add(
        `${path}.${union}`,
        'unsupported_schema',
        `moving the constraints beside '${union}' into each of its alternatives (as legate publishes a union) makes ` +
          `more than ${MAX_COPIED_VALUES} schema values in this schema; move those constraints into the ` +
          'alternatives yourself, or nest fewer unions inside one another.',
      );
      return true;
    }
    const alternatives = (merged[union] as unknown[]).map((alternative, i) => {
      const content = this.#content(alternative, `${path}.${union}.${i}`);
      if (content === undefined || content === false) return false;
      const result = mergeSchemas(content === true ? {} : content, siblings);
      // An alternative that contradicts the constraints beside the union can never match: it is dropped.
      if (isConflict(result)) return false;
      return open ? result : closeObject(result);
    });
    const possible = alternatives.filter((alternative) => alternative !== false) as Schema[];
    if (possible.length === 0) return false;
    if (possible.length > 1) return { ...kept, [union]: possible };
    // One alternative left: the union is that alternative, with the union's annotations.
    const { [union]: _alternatives, ...annotations } = kept;
    const one = mergeSchemas(annotations, possible[0]!);
    return isConflict(one) ? possible[0]! : one;
  }

  /** What a part contributes to a merge: its own keywords, or its target's when it is a bare `$ref`. */
  #content(part: unknown, path: string): Schema | boolean | undefined {
    if (!isPlainObject(part) || typeof part.$ref !== 'string' || hasChecks(part, ['$ref']))
      return part as Schema | boolean;
    const local = parseLocalRef(part.$ref);
    const target = local?.kind === 'pointer' ? this.#target(local.tokens) : undefined;
    if (target === undefined) {
      this.#problems.add(
        path,
        'unsupported_schema',
        `'${part.$ref}' refers to a schema that contains this one, so it cannot be merged with the constraints ` +
          'beside it; move those constraints into the definition.',
      );
    }
    return target as Schema | boolean | undefined;
  }
}

/** Whether a schema has keywords that check values, other than the ones named. */
function hasChecks(schema: Schema, except: string[]): boolean {
  return Object.keys(schema).some((k) => !except.includes(k) && KEYWORDS[k]?.role === 'checked' && !DEFINITIONS.has(k));
}
