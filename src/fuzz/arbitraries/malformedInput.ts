import fc from 'fast-check';
import type { ArgumentPath } from '../../tools/binder/invalidArgument.js';
import type { PublishedSchema } from '../../tools/schema/prepareSchema.js';
import type { AnyTool } from '../../tools/tool.js';
import { arbitraryOf } from './arbitraryOf.js';
import { AWKWARD_TEXT } from './stringOf.js';

/** How an input was broken. */
export type Malformation =
  | 'wrong_type'
  | 'missing_required'
  | 'explicit_null'
  | 'out_of_range'
  | 'not_an_integer'
  | 'huge_magnitude'
  | 'too_long'
  | 'too_short'
  | 'pattern_miss'
  | 'enum_near_miss'
  | 'extra_property'
  | 'deep_nesting'
  | 'not_an_object';

/** A malformed input that knows where it was broken, so a test can check the binder named that place. */
export interface MalformedCase {
  input: unknown;
  path: ArgumentPath;
  malformation: Malformation;
}

interface Site {
  path: ArgumentPath;
  schema: PublishedSchema;
  required: boolean;
  /** Where the value sits: a property of an object, or an item of an array. */
  kind: 'property' | 'item';
}

/** Inputs broken in exactly one place, every way a model (or an attacker) breaks them. */
export function malformedInput(tool: AnyTool): fc.Arbitrary<MalformedCase> {
  const root = tool.inputSchema;
  const sites = collectSites(root, []);
  const objects = [
    { path: [] as ArgumentPath, schema: root },
    ...sites.filter((s) => isType(s.schema, 'object')).map((s) => ({ path: s.path, schema: s.schema })),
  ];
  const breakers: fc.Arbitrary<MalformedCase>[] = [notAnObject()];
  for (const site of sites) breakers.push(...breakSite(root, site));
  for (const object of objects) breakers.push(extraProperty(root, object.path, object.schema));
  return fc.oneof(...breakers);
}

/** A value where the whole input belongs: the top level must be an object of named arguments. */
function notAnObject(): fc.Arbitrary<MalformedCase> {
  return fc
    .oneof(
      fc.array(fc.jsonValue(), { maxLength: 3 }),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom('not json {', '"text"', '[1,2]'),
    )
    .map((input) => ({ input, path: [], malformation: 'not_an_object' as const }));
}

function breakSite(root: PublishedSchema, site: Site): fc.Arbitrary<MalformedCase>[] {
  const at = (malformation: Malformation, bad: fc.Arbitrary<unknown>) =>
    fc
      .tuple(fullValueOf(root), bad)
      .map(
        ([input, value]): MalformedCase => ({ input: setAt(input, site.path, value), path: site.path, malformation }),
      );
  const schema = site.schema;
  const cases: fc.Arbitrary<MalformedCase>[] = [];
  const wrong = wrongTypesFor(schema, site);
  if (wrong.length > 0) cases.push(at('wrong_type', fc.constantFrom(...wrong)));
  const hasDefault = 'default' in schema;
  if (site.kind === 'property' && site.required && !hasDefault) {
    cases.push(
      fc.tuple(fullValueOf(root)).map(([input]) => ({
        input: deleteAt(input, site.path),
        path: site.path,
        malformation: 'missing_required' as const,
      })),
    );
    if (!acceptsNull(schema)) cases.push(at('explicit_null', fc.constant(null)));
  }
  if (isType(schema, 'integer') || isType(schema, 'number')) {
    const integer = isType(schema, 'integer');
    const outside = [
      typeof schema.maximum === 'number' ? schema.maximum + 1 : undefined,
      typeof schema.minimum === 'number' ? schema.minimum - 1 : undefined,
      typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : undefined,
      typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined,
    ].filter((n): n is number => n !== undefined);
    if (outside.length > 0) cases.push(at('out_of_range', fc.constantFrom(...outside)));
    // Beyond the safe integers, beyond a declared bound, or not finite at all: refused, never saturated.
    const huge = integer
      ? [2 ** 60, -(2 ** 60), Infinity, Number.NaN]
      : [
          Infinity,
          -Infinity,
          Number.NaN,
          ...(typeof schema.maximum === 'number' ? [Number.MAX_VALUE] : []),
          ...(typeof schema.minimum === 'number' ? [-Number.MAX_VALUE] : []),
        ];
    cases.push(at('huge_magnitude', fc.constantFrom(...huge)));
    if (integer) cases.push(at('not_an_integer', fc.constantFrom(0.5, 1.25, -2.75)));
  }
  if (isType(schema, 'string') && !('enum' in schema) && !('const' in schema)) {
    if (typeof schema.maxLength === 'number')
      cases.push(
        at(
          'too_long',
          fc
            .constantFrom('x', ...AWKWARD_TEXT.filter((t) => t !== '\u0000'))
            .map((unit) => unit.repeat((schema.maxLength as number) + 1)),
        ),
      );
    if (typeof schema.minLength === 'number' && schema.minLength > 0)
      cases.push(at('too_short', fc.constant('x'.repeat((schema.minLength as number) - 1))));
    if (typeof schema.pattern === 'string') {
      const pattern = new RegExp(schema.pattern, 'u');
      const misses = ['', ' ', 'x', '\u202Ex', 'ZZZZ-9999-zzzz', '😀'].filter(
        (s) => !pattern.test(s) && lengthFits(schema, s),
      );
      if (misses.length > 0) cases.push(at('pattern_miss', fc.constantFrom(...misses)));
    }
  }
  if (isType(schema, 'array')) {
    if (typeof schema.maxItems === 'number') {
      const max = schema.maxItems as number;
      cases.push(
        at(
          'too_long',
          fc.array(arbitraryOf(schema.items as PublishedSchema, root), { minLength: max + 1, maxLength: max + 1 }),
        ),
      );
    }
    if (typeof schema.minItems === 'number' && schema.minItems > 0) cases.push(at('too_short', fc.constant([])));
  }
  const strings = Array.isArray(schema.enum)
    ? (schema.enum as unknown[]).filter((v): v is string => typeof v === 'string')
    : [];
  if (strings.length > 0) {
    const allowed = new Set(schema.enum as unknown[]);
    const nearMisses = strings
      .flatMap((v) => [v.toUpperCase(), v.toLowerCase(), `${v}s`, v.slice(0, -1), ` ${v}`])
      .filter((v) => !allowed.has(v));
    if (nearMisses.length > 0) cases.push(at('enum_near_miss', fc.constantFrom(...nearMisses)));
  }
  if (!isType(schema, 'array')) cases.push(at('deep_nesting', fc.integer({ min: 20, max: 200 }).map(nested)));
  return cases;
}

function extraProperty(
  root: PublishedSchema,
  path: ArgumentPath,
  object: PublishedSchema,
): fc.Arbitrary<MalformedCase> {
  const declared = new Set(Object.keys((object.properties as Record<string, unknown> | undefined) ?? {}));
  const name = fc
    .constantFrom('extra', 'unexpected_field', 'Amount', '__proto__', 'constructor', 'x')
    .filter((key) => !declared.has(key));
  return fc.tuple(fullValueOf(root), name, fc.jsonValue()).map(([input, key, value]) => {
    const target = getAt(input, path) as Record<string, unknown>;
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
    return { input, path: [...path, key], malformation: 'extra_property' as const };
  });
}

/**
 * Values of JSON types the node does not accept. A null only for an array item: for a property,
 * null means "absent" (see explicit_null).
 */
function wrongTypesFor(schema: PublishedSchema, site: Site): unknown[] {
  const wrong: unknown[] = ['text', '3', 7, 42.5, true, ['a'], { a: 1 }].filter((value) => !accepts(schema, value));
  if (site.kind === 'item' && !acceptsNull(schema)) wrong.push(null);
  return wrong;
}

/** Whether a value's JSON type (and closed set) fits a node, ignoring other constraints. */
function accepts(schema: PublishedSchema, value: unknown): boolean {
  if ('const' in schema) return schema.const === value;
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).includes(value);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return true;
  }
}

/** Every property and (first) array item below the root, in declaration order. */
function collectSites(schema: PublishedSchema, path: ArgumentPath): Site[] {
  const sites: Site[] = [];
  if (isType(schema, 'object')) {
    const required = new Set((schema.required as string[] | undefined) ?? []);
    for (const [key, property] of Object.entries(
      (schema.properties as Record<string, PublishedSchema> | undefined) ?? {},
    )) {
      sites.push({ path: [...path, key], schema: property, required: required.has(key), kind: 'property' });
      sites.push(...collectSites(property, [...path, key]));
    }
  } else if (isType(schema, 'array') && (schema.maxItems as number | undefined) !== 0) {
    const items = schema.items as PublishedSchema;
    sites.push({ path: [...path, 0], schema: items, required: true, kind: 'item' });
    sites.push(...collectSites(items, [...path, 0]));
  }
  return sites;
}

/** A valid value with every property present and every array holding at least one item, so any site exists. */
function fullValueOf(schema: PublishedSchema): fc.Arbitrary<unknown> {
  if (isType(schema, 'object') && !('enum' in schema)) {
    const properties = (schema.properties as Record<string, PublishedSchema> | undefined) ?? {};
    return fc.record(
      Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, fullValueOf(property)])),
    );
  }
  if (isType(schema, 'array') && (schema.maxItems as number | undefined) !== 0) {
    const min = Math.max(1, (schema.minItems as number | undefined) ?? 0);
    const max = Math.max(min, Math.min((schema.maxItems as number | undefined) ?? min + 2, min + 2));
    return fc.array(fullValueOf(schema.items as PublishedSchema), { minLength: min, maxLength: max });
  }
  return arbitraryOf(schema, schema).filter((v) => v !== null);
}

function isType(schema: PublishedSchema, type: string): boolean {
  return (Array.isArray(schema.type) ? schema.type[0] : schema.type) === type;
}

function acceptsNull(schema: PublishedSchema): boolean {
  return (
    Array.isArray(schema.type) || schema.const === null || (Array.isArray(schema.enum) && schema.enum.includes(null))
  );
}

function lengthFits(schema: PublishedSchema, text: string): boolean {
  const length = [...text].length;
  return (
    length >= ((schema.minLength as number | undefined) ?? 0) &&
    length <= ((schema.maxLength as number | undefined) ?? Infinity)
  );
}

function nested(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function getAt(root: unknown, path: ArgumentPath): unknown {
  return path.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], root);
}

function setAt(root: unknown, path: ArgumentPath, value: unknown): unknown {
  const parent = getAt(root, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path[path.length - 1]!] = value;
  return root;
}

function deleteAt(root: unknown, path: ArgumentPath): unknown {
  const parent = getAt(root, path.slice(0, -1)) as Record<string | number, unknown>;
  delete parent[path[path.length - 1]!];
  return root;
}
