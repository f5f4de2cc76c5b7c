import { isPlainObject } from '../../json/jsonValue.js';
import type { DeclarationProblem } from '../declarationError.js';
import type { PublishedSchema } from '../schema/publishedSchema.js';
import { parseLocalRef, pointerOf, valueAtPointer } from '../schema/schemaPointer.js';

type Schema = Record<string, unknown>;

/**
 * The string formats the API's structured outputs enforce; any other `format` is stated in the
 * description (legate still checks it). The list of the API's documentation and of the SDK's
 * own `transformJSONSchema` (@anthropic-ai/sdk 1.14).
 */
const API_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'uri',
  'ipv4',
  'ipv6',
  'uuid',
]);

/** Keywords that name or label a schema and constrain nothing: left out of the description. */
const DROPPED = new Set(['$schema', '$id', '$anchor', '$comment']);

/**
 * The schema the API is sent for a structured answer (`output_config.format.schema`), made from
 * a prepared schema (legate's normal form: `allOf` merged, `$ref`s as JSON pointers). The API's
 * structured outputs accept a subset of JSON Schema (types, `enum`/`const` of plain values,
 * `anyOf`, `allOf`, local `$ref`/`$defs`, `properties`/`required`, `items`, `minItems` 0 or 1,
 * some string formats) and need `additionalProperties: false` on every object. So:
 * - every object is closed; one that allows other properties (a map, `patternProperties`, or
 *   no declared properties at all) cannot be asked for, and is a problem to fix;
 * - `oneOf` is sent as `anyOf` (the API has no "exactly one");
 * - every other constraint (`minimum`, `maxLength`, `pattern`, `uniqueItems`, ...) is written into
 *   the schema's description, as the SDK's own helpers do: the model reads it, the API does not
 *   enforce it, and legate's check of the answer (against the whole schema) does;
 * - a schema without a type (`{}`, `true`) and a recursive `$ref` are problems: the API refuses them.
 * Paths in problems are like `output.properties.items`.
 */
export function strictOutputSchema(schema: PublishedSchema): { schema: Schema; problems: DeclarationProblem[] } {
  const problems: DeclarationProblem[] = [];
  const moved = movedTargets(schema);
  const context: Context = { problems, refs: new Map([...moved].map(([pointer, { name }]) => [pointer, name])) };
  const strict = strictNode(schema, ['output'], context) as Schema;
  if (moved.size > 0) {
    const defs = (strict.$defs ?? {}) as Schema;
    for (const { name, tokens } of moved.values())
      defs[name] = strictNode(valueAtPointer(schema, tokens), ['output', ...tokens], context);
    strict.$defs = defs;
  }
  problems.push(...recursionProblems(strict));
  return { schema: strict, problems };
}

interface Context {
  problems: DeclarationProblem[];
  /** `$ref`s whose targets are moved under `$defs`, by pointer: the pointer they are sent as. */
  refs: ReadonlyMap<string, string>;
}

/**
 * Targets of `$ref`s that sit elsewhere than a top-level `$defs` or `definitions` (an OpenAPI
 * document's `#/components/schemas/Pet`, a property): the API resolves references into
 * definitions, so each is sent as a definition of its own, under a name not yet taken.
 */
function movedTargets(schema: PublishedSchema): Map<string, { name: string; tokens: string[] }> {
  const moved = new Map<string, { name: string; tokens: string[] }>();
  const taken = new Set(Object.keys(isPlainObject(schema.$defs) ? schema.$defs : {}));
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    if (!isPlainObject(node)) continue;
    stack.push(...Object.values(node));
    if (typeof node.$ref !== 'string' || moved.has(node.$ref)) continue;
    const ref = parseLocalRef(node.$ref);
    if (ref?.kind !== 'pointer' || ref.tokens.length === 0) continue;
    if (ref.tokens.length === 2 && (ref.tokens[0] === '$defs' || ref.tokens[0] === 'definitions')) continue;
    let name = ref.tokens[ref.tokens.length - 1]!;
    for (let i = 2; taken.has(name); i++) name = `${ref.tokens[ref.tokens.length - 1]}_${i}`;
    taken.add(name);
    moved.set(node.$ref, { name, tokens: ref.tokens });
  }
  return moved;
}

function strictNode(node: unknown, path: string[], context: Context): unknown {
  const { problems } = context;
  const at = path.join('.');
  if (!isPlainObject(node)) {
    const shown = JSON.stringify(node);
    problems.push({
      code: 'unsupported_schema',
      path: at,
      problem: `structured outputs need a type for every value, but this schema is ${shown}; give it one.`,
    });
    return {};
  }
  const rest: Schema = { ...node };
  const strict: Schema = {};
  const take = (keyword: string): unknown => {
    const value = rest[keyword];
    delete rest[keyword];
    return value;
  };
  const definitions = (['$defs', 'definitions'] as const).filter((keyword) => isPlainObject(rest[keyword]));
  for (const keyword of definitions) {
    const defs = take(keyword) as Schema;
    strict[keyword] = Object.fromEntries(
      Object.entries(defs).map(([name, def]) => [name, strictNode(def, [...path, keyword, name], context)]),
    );
  }
  if (typeof rest.$ref === 'string') {
    const ref = take('$ref') as string;
    const moved = context.refs.get(ref);
    strict.$ref = moved === undefined ? ref : pointerOf(['$defs', moved]);
    return strict;
  }
  if (Array.isArray(rest.enum) && rest.enum.length > 0 && rest.enum.every(isPlain)) strict.enum = take('enum');
  if ('const' in rest && isPlain(rest.const)) strict.const = take('const');
  const literal = 'enum' in strict || 'const' in strict;
  const type = take('type');
  for (const union of ['anyOf', 'oneOf', 'allOf'] as const) {
    const parts = take(union);
    if (!Array.isArray(parts)) continue;
    strict[union === 'allOf' ? 'allOf' : 'anyOf'] = parts.map((part, i) =>
      strictNode(part, [...path, union, String(i)], context),
    );
  }
  if (!literal && type !== undefined) strict.type = type;
  if (!literal && type === undefined && !('anyOf' in strict) && !('allOf' in strict)) {
    problems.push({
      code: 'unsupported_schema',
      path: at,
      problem: 'structured outputs need a type for every value (or an enum, const or anyOf), and this schema has none.',
    });
  }
  for (const keyword of ['description', 'title'] as const) if (keyword in rest) strict[keyword] = take(keyword);
  const types = literal ? [] : Array.isArray(type) ? type : [type];
  if (types.includes('object')) closeObject(rest, strict, path, context, take);
  if (types.includes('string') && typeof rest.format === 'string' && API_FORMATS.has(rest.format))
    strict.format = take('format');
  if (types.includes('array')) {
    if ('items' in rest) strict.items = strictNode(take('items'), [...path, 'items'], context);
    if (rest.minItems === 0 || rest.minItems === 1) strict.minItems = take('minItems');
  }
  for (const keyword of DROPPED) delete rest[keyword];
  return describeRest(strict, rest);
}

function closeObject(
  rest: Schema,
  strict: Schema,
  path: string[],
  context: Context,
  take: (keyword: string) => unknown,
): void {
  const { problems } = context;
  const at = path.join('.');
  const properties = take('properties');
  const additional = take('additionalProperties');
  if ('patternProperties' in rest || (additional !== undefined && additional !== false)) {
    problems.push({
      code: 'unsupported_schema',
      path: at,
      problem:
        'structured outputs need every object closed (additionalProperties: false), and this one allows other ' +
        "properties (a map or record); declare the object's properties, or ask for a list of key-value pairs.",
    });
    delete rest.patternProperties;
  } else if (additional === undefined) {
    problems.push({
      code: 'unsupported_schema',
      path: at,
      problem:
        'structured outputs need every object closed (additionalProperties: false), and this one declares no ' +
        "properties, so the model could only answer {}; declare the object's properties.",
    });
  }
  strict.properties = Object.fromEntries(
    Object.entries(isPlainObject(properties) ? properties : {}).map(([name, property]) => [
      name,
      strictNode(property, [...path, 'properties', name], context),
    ]),
  );
  strict.additionalProperties = false;
  if ('required' in rest) strict.required = take('required');
}

/** What the API does not enforce, written into the description: `{minimum: 1, maxLength: 10}`. */
function describeRest(strict: Schema, rest: Schema): Schema {
  const entries = Object.entries(rest);
  if (entries.length === 0) return strict;
  const rules = `{${entries.map(([keyword, value]) => `${keyword}: ${JSON.stringify(value)}`).join(', ')}}`;
  const description = typeof strict.description === 'string' ? `${strict.description}\n\n${rules}` : rules;
  return { ...strict, description };
}

function isPlain(value: unknown): boolean {
  return value === null || typeof value !== 'object';
}

/** A `$ref` that reaches the schema it sits in: the API does not accept recursive schemas. */
function recursionProblems(root: Schema): DeclarationProblem[] {
  const refsOf = new Map<string, string[]>();
  const definitionPointers: string[] = [];
  const collect = (node: unknown, pointer: string, owner: string): void => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) collect(item, `${pointer}/${i}`, owner);
      return;
    }
    if (!isPlainObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      if (key === '$ref' && typeof value === 'string') refsOf.get(owner)!.push(value);
      else if ((key === '$defs' || key === 'definitions') && isPlainObject(value) && pointer === '#')
        for (const [name, def] of Object.entries(value)) {
          const defPointer = `${at}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
          definitionPointers.push(defPointer);
          refsOf.set(defPointer, []);
          collect(def, defPointer, defPointer);
        }
      else collect(value, at, owner);
    }
  };
  refsOf.set('#', []);
  collect(root, '#', '#');
  const problems: DeclarationProblem[] = [];
  for (const start of definitionPointers) {
    const seen = new Set<string>();
    const stack = [...refsOf.get(start)!];
    while (stack.length > 0) {
      const ref = stack.pop()!;
      if (ref === start || ref === '#') {
        problems.push({
          code: 'unsupported_schema',
          path: ['output', ...start.slice(2).split('/')].join('.'),
          problem:
            'structured outputs do not accept a recursive schema, and this definition refers to itself ' +
            '(directly or through others); give the nesting a fixed depth.',
        });
        break;
      }
      if (seen.has(ref)) continue;
      seen.add(ref);
      stack.push(...(refsOf.get(ref) ?? []));
    }
  }
  return problems;
}
