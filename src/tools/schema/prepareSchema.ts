import { jsonValueCount } from '../../json/jsonValueCount.js';
import { copyValue } from '../../json/copyValue.js';
import { describeValue } from '../../json/describeValue.js';
import { isPlainObject } from '../../json/jsonValue.js';
import type { ToolDeclarationWarning } from '../declarationError.js';
import { checkKeywordValues, declaredTypes } from './checkKeywordValues.js';
import { MAX_INPUT_DEPTH } from './inputDepth.js';
import { isConflict, mergeSchemas } from './mergeSchemas.js';
import { KEYWORDS, SUBSCHEMA_KEYWORDS, VALUE_KEYWORDS } from './schemaKeywords.js';
import {
  collectAnchors,
  declarationPath,
  parseLocalRef,
  pointerOf,
  setAtPointer,
  valueAtPointer,
} from './schemaPointer.js';
import { SchemaProblems } from './schemaProblems.js';
import { rewriteSpellings } from './rewriteSpellings.js';

/** A schema document after preparation: plain JSON Schema 2020-12, exactly what the model is shown. */
export type PublishedSchema = Record<string, unknown>;

type Schema = Record<string, unknown>;

/** Keywords whose sub-schemas sit one level deeper in the value (the input-depth count). */
const NESTING = new Set([
  'properties',
  'patternProperties',
  'additionalProperties',
  'items',
  'prefixItems',
  'contains',
]);

/**
 * Reads a tool's input schema as JSON Schema 2020-12 (draft-04/07 and OpenAPI 3.0 spellings
 * accepted), reports every construct the binder cannot check in one error, and returns the
 * schema the model will be shown, normalised so the binder, the fuzzers and the model read the
 * same thing: `allOf` merged, constraints beside `anyOf`/`oneOf` moved into each alternative,
 * `$ref`s kept (as JSON pointers) with their targets normalised in place, and
 * `additionalProperties: false` on every object that declares properties and says nothing else
 * (the binder refuses unknown arguments there, so the model is told so). See docs/tools.md.
 */
export function prepareSchema(tool: string, schema: unknown, fromZod = false): PreparedSchema {
  const problems = new SchemaProblems(tool);
  if (!isPlainObject(schema)) {
    problems.add(
      'input',
      'invalid_schema',
      `a tool's input must be an object schema ({ type: 'object', properties: ... }) or a zod object, but it ` +
        `was ${describeValue(schema)}.`,
    );
    problems.throwIfAny();
  }
  // A copy of its own: the author's object is never changed, and nothing of the published one is shared with it.
  const published = new Normaliser(copyValue(schema as Schema), problems, fromZod).run();
  problems.throwIfAny();
  return { schema: published, warnings: problems.warnings };
}

export interface PreparedSchema {
  schema: PublishedSchema;
  warnings: ToolDeclarationWarning[];
}

class Normaliser {
  /** Normalised targets of `$ref`s and definitions, by pointer; `null` while being normalised. */
  readonly #targets = new Map<string, { tokens: string[]; node: unknown | null }>();
  readonly #anchors: Map<string, string[]>;
  /** How many schemas are being read inside one another right now (`$ref` targets included). */
  #nesting = 0;
  /** How many JSON values were copied into the alternatives of unions so far (see {@link MAX_COPIED_VALUES}). */
  #copied = 0;

  constructor(
    readonly document: Schema,
    readonly problems: SchemaProblems,
    readonly fromZod: boolean,
  ) {
    this.#anchors = collectAnchors(document);
  }

  run(): PublishedSchema {
    const root = this.node(this.document, [], 0);
    const union = isPlainObject(root) && ('anyOf' in root || 'oneOf' in root); // reported where it is
    if (!isPlainObject(root) || (!union && !this.#isObjectRoot(root))) {
      this.problems.add(
        'input',
        'invalid_schema',
        `a tool's input must be an object schema ({ type: 'object', properties: ... }) or a zod object, but it ` +
          `was ${describeValue(this.document)}.`,
      );
      return {};
    }
    // Every target reached by a $ref is normalised where it sits, so a pointer reads the same
    // published schema the binder checks.
    for (const { tokens, node } of this.#targets.values()) {
      if (tokens.length === 0 || node === null) continue;
      if (!setAtPointer(root, tokens, node))
        this.problems.add(
          declarationPath(tokens),
          'unsupported_schema',
          "a '$ref' points inside a part legate rewrites (an 'allOf' part or an alternative); point it to a " +
            "definition under '$defs' instead.",
        );
    }
    return root;
  }

  #isObjectRoot(root: Schema): boolean {
    const types = declaredTypes(root, 'input');
    return types !== undefined && types.length === 1 && types[0] === 'object';
  }

  /** The normalised schema at `tokens`, normalised once; undefined (and a problem) for a cycle through a merge. */
  target(tokens: string[]): unknown {
    const pointer = pointerOf(tokens);
    const known = this.#targets.get(pointer);
    if (known !== undefined) return known.node === null ? undefined : known.node;
    this.#targets.set(pointer, { tokens, node: null });
    const node = tokens.length === 0 ? this.document : this.node(valueAtPointer(this.document, tokens), tokens, 0);
    this.#targets.set(pointer, { tokens, node });
    return node;
  }

  /**
   * `open`: the node is a condition on a value described elsewhere (`if`, `then`, `else`, `not`,
   * `contains`, and everything below them), so no `additionalProperties: false` is added in it:
   * `if: { properties: { kind: { const: 'a' } } }` must still match objects with other keys.
   */
  node(node: unknown, tokens: string[], levels: number, open = false): unknown {
    if (this.#nesting >= MAX_SCHEMA_NESTING) {
      this.problems.add(
        declarationPath(tokens),
        'unsupported_schema',
        `the schema nests more than ${MAX_SCHEMA_NESTING} schemas inside one another here (through ` +
          "'$ref's too); flatten it.",
      );
      return true;
    }
    this.#nesting++;
    try {
      return this.#read(node, tokens, levels, open);
    } finally {
      this.#nesting--;
    }
  }

  #read(node: unknown, tokens: string[], levels: number, open: boolean): unknown {
    const path = declarationPath(tokens);
    if (typeof node === 'boolean') return node;
    if (!isPlainObject(node)) {
      this.problems.add(
        path,
        'invalid_schema',
        `a schema must be an object (or true or false), but it was ${describeValue(node)}.`,
      );
      return true;
    }
    for (const keyword of Object.keys(node)) {
      const role = KEYWORDS[keyword];
      if (role?.role === 'refused')
        this.problems.add(
          `${path}.${keyword}`,
          'unsupported_schema',
          `'${keyword}' is not a rule the binder checks; ${role.advice}.`,
        );
    }
    if ('$id' in node && tokens.length > 0)
      this.problems.add(
        `${path}.$id`,
        'unsupported_schema',
        "'$id' below the root starts a document of its own, which legate does not resolve; remove it and refer " +
          "to the schema by pointer ('#/$defs/Name').",
      );
    let schema = rewriteSpellings(node, path, this.problems);
    const container = declaredTypes(schema, path)?.some((t) => t === 'array' || t === 'object') ?? false;
    if (container && levels + 1 > MAX_INPUT_DEPTH) {
      this.problems.add(
        path,
        'unsupported_schema',
        `the input may nest at most ${MAX_INPUT_DEPTH} levels of arrays and objects, and this one is level ` +
          `${levels + 1}; flatten the schema.`,
      );
      return true;
    }
    const isRoot = tokens.length === 0;
    if (isRoot && schema.type === undefined) schema.type = 'object';
    schema = this.#descend(schema, tokens, levels, open);
    const merged = this.#mergeParts(schema, tokens, open);
    if (typeof merged === 'boolean') return merged;
    // Merged parts can meet as a new shape (a union from one part, a type from another, under the
    // same property): the result is read once more, so it is in normal form like everything else.
    if ('allOf' in schema) return this.node(merged, tokens, levels, open);
    schema = open ? merged : close(merged);
    if (isRoot && (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf))) {
      const union = Array.isArray(schema.anyOf) ? 'anyOf' : 'oneOf';
      this.problems.add(
        `input.${union}`,
        'unsupported_schema',
        `the Messages API refuses a tool whose input is a union ('anyOf', 'oneOf' or 'allOf' at the top level); ` +
          'make the union one argument of the input object, or declare one tool per alternative.',
      );
    }
    checkKeywordValues(schema, schema, path, this.problems, this.fromZod);
    return schema;
  }

  /** Normalises every sub-schema, resolving `$ref`s to pointers whose targets are normalised too. */
  #descend(schema: Schema, tokens: string[], levels: number, open: boolean): Schema {
    for (const [keyword, value] of Object.entries(schema)) {
      if (VALUE_KEYWORDS.has(keyword)) continue;
      const deeper = NESTING.has(keyword) ? levels + 1 : levels;
      const at = [...tokens, keyword];
      if ((SUBSCHEMA_KEYWORDS.single as readonly string[]).includes(keyword)) {
        schema[keyword] = this.node(value, at, deeper, open || CONDITIONS.has(keyword));
      } else if ((SUBSCHEMA_KEYWORDS.list as readonly string[]).includes(keyword)) {
        if (!Array.isArray(value) || (value.length === 0 && keyword !== 'prefixItems')) {
          this.problems.add(
            declarationPath(at),
            'invalid_schema',
            `'${keyword}' must be a non-empty list of schemas, but it was ${describeValue(value)}.`,
          );
          delete schema[keyword];
        } else {
          schema[keyword] = value.map((item, i) => this.node(item, [...at, String(i)], deeper, open));
        }
      } else if ((SUBSCHEMA_KEYWORDS.map as readonly string[]).includes(keyword) && isPlainObject(value)) {
        const definitions = keyword === '$defs' || keyword === 'definitions';
        schema[keyword] = Object.fromEntries(
          Object.entries(value).map(([name, item]) => [
            name,
            definitions ? (this.target([...at, name]) ?? true) : this.node(item, [...at, name], deeper, open),
          ]),
        );
      } else if (keyword === '$ref') {
        schema.$ref = this.#ref(value, declarationPath(at));
      }
    }
    return schema;
  }

  /** A `$ref` as a JSON pointer whose target exists and is normalised; problems for anything else. */
  #ref(ref: unknown, path: string): unknown {
    if (typeof ref !== 'string') {
      this.problems.add(path, 'invalid_schema', `'$ref' must be a string, but it was ${describeValue(ref)}.`);
      return ref;
    }
    const local = parseLocalRef(ref);
    if (local === undefined) {
      this.problems.add(
        path,
        'unsupported_schema',
        `'${ref}' refers to another document, and legate reads no other documents; copy the schema into ` +
          "'$defs' and refer to it as '#/$defs/Name'.",
      );
      return ref;
    }
    const tokens = local.kind === 'anchor' ? this.#anchors.get(local.name) : local.tokens;
    if (tokens === undefined || valueAtPointer(this.document, tokens) === undefined) {
      this.problems.add(path, 'invalid_schema', `'${ref}' points to nothing in this schema.`);
      return ref;
    }
    this.target(tokens);
    return pointerOf(tokens);
  }

  /**
   * `allOf` merged into its node; a `$ref` with constraints beside it merged with its target;
   * constraints beside `anyOf`/`oneOf` moved into every alternative.
   */
  #mergeParts(schema: Schema, tokens: string[], open: boolean): Schema | boolean {
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
          this.problems.add(`${path}.allOf.${i}.${result.at}`, 'unsupported_schema', `${result.problem}.`);
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
        this.problems.add(`${path}.${result.at}`, 'unsupported_schema', `${result.problem}.`);
        return true;
      }
      merged = result;
    }
    if (Array.isArray(merged.anyOf) && Array.isArray(merged.oneOf)) {
      this.problems.add(
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
      this.problems.add(
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
      return open ? result : close(result);
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
    const target = local?.kind === 'pointer' ? this.target(local.tokens) : undefined;
    if (target === undefined) {
      this.problems.add(
        path,
        'unsupported_schema',
        `'${part.$ref}' refers to a schema that contains this one, so it cannot be merged with the constraints ` +
          'beside it; move those constraints into the definition.',
      );
    }
    return target as Schema | boolean | undefined;
  }
}

const DEFINITIONS = new Set(['$defs', 'definitions', 'default']);
/**
 * How deep schemas may sit inside one another, `$ref` targets counted as they are reached: far
 * beyond any real schema (OpenAI's largest request body nests about 20), and well within the stack
 * every later reader of the schema (binder, messages, fuzzers) recurses on.
 */
const MAX_SCHEMA_NESTING = 200;
/**
 * How many JSON values moving constraints into unions' alternatives may copy in one schema: far beyond any real
 * schema (GitHub's and Stripe's largest request bodies hold a few thousand values), and a bound on the time and
 * memory a small schema whose nested unions multiply (3 alternatives under 3 properties, 7 levels) can take.
 */
const MAX_COPIED_VALUES = 100_000;
/** Keywords whose schemas are conditions on a value, not descriptions of it: never closed. */
const CONDITIONS = new Set(['if', 'then', 'else', 'not', 'contains']);

/** Whether a schema has keywords that check values, other than the ones named. */
function hasChecks(schema: Schema, except: string[]): boolean {
  return Object.keys(schema).some((k) => !except.includes(k) && KEYWORDS[k]?.role === 'checked' && !DEFINITIONS.has(k));
}

/** `additionalProperties: false` on an object that declares properties and says nothing about others. */
function close(schema: Schema): Schema {
  const declares = isPlainObject(schema.properties) || isPlainObject(schema.patternProperties);
  if (declares && !('additionalProperties' in schema) && !('anyOf' in schema) && !('oneOf' in schema))
    schema.additionalProperties = false;
  return schema;
}
