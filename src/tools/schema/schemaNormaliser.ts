import { describeValue } from '../../json/describeValue.js';
import { isPlainObject } from '../../json/jsonValue.js';
import { checkKeywordValues, declaredTypes } from './checkKeywordValues.js';
import { closeObject } from './closeObject.js';
import { MAX_INPUT_DEPTH } from './inputDepth.js';
import { PartMerger } from './partMerger.js';
import type { PublishedSchema } from './publishedSchema.js';
import { rewriteSpellings } from './rewriteSpellings.js';
import { KEYWORDS, SUBSCHEMA_KEYWORDS, VALUE_KEYWORDS } from './schemaKeywords.js';
import {
  collectAnchors,
  declarationPath,
  parseLocalRef,
  pointerOf,
  setAtPointer,
  valueAtPointer,
} from './schemaPointer.js';
import type { SchemaProblems } from './schemaProblems.js';

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
 * How deep schemas may sit inside one another, `$ref` targets counted as they are reached: far
 * beyond any real schema (OpenAI's largest request body nests about 20), and well within the stack
 * every later reader of the schema (binder, messages, fuzzers) recurses on.
 */
const MAX_SCHEMA_NESTING = 200;
/** Keywords whose schemas are conditions on a value, not descriptions of it: never closed. */
const CONDITIONS = new Set(['if', 'then', 'else', 'not', 'contains']);

/**
 * One tool's input schema read node by node into the schema the model is shown: every construct the binder cannot
 * check reported, spellings rewritten, sub-schemas normalised, `$ref`s kept as pointers with their targets
 * normalised where they sit, the parts of each node merged ({@link PartMerger}), objects closed.
 */
export class SchemaNormaliser {
  /** Normalised targets of `$ref`s and definitions, by pointer; `null` while being normalised. */
  readonly #targets = new Map<string, { tokens: string[]; node: unknown | null }>();
  readonly #anchors: Map<string, string[]>;
  /** How many schemas are being read inside one another right now (`$ref` targets included). */
  #nesting = 0;
  readonly #parts: PartMerger;

  constructor(
    readonly document: Schema,
    readonly problems: SchemaProblems,
    readonly fromZod: boolean,
  ) {
    this.#anchors = collectAnchors(document);
    this.#parts = new PartMerger(problems, (tokens) => this.target(tokens));
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
    const merged = this.#parts.merge(schema, tokens, open);
    if (typeof merged === 'boolean') return merged;
    // Merged parts can meet as a new shape (a union from one part, a type from another, under the
    // same property): the result is read once more, so it is in normal form like everything else.
    if ('allOf' in schema) return this.node(merged, tokens, levels, open);
    schema = open ? merged : closeObject(merged);
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
}
