import { describeValue } from '../../json/describeValue.js';
import { isPlainObject } from '../../json/jsonValue.js';
import { ToolDeclarationError } from '../declarationError.js';
import { FORMAT_CHECKS, JSON_SCHEMA_FORMATS } from './formats.js';
import { MAX_INPUT_DEPTH } from './inputDepth.js';
import { compileLinearPattern, UnsupportedPattern } from './linearPattern.js';

/** A schema node after preparation: plain data, exactly what the model is shown. */
export type PublishedSchema = Record<string, unknown>;

/** Validation keywords the binder does not check. Declaring one would show the model a rule nobody enforces. */
const UNCHECKED_KEYWORDS: Record<string, string> = {
  anyOf: 'list the alternatives as an enum, or split the tool in two',
  oneOf: 'list the alternatives as an enum, or split the tool in two',
  allOf: 'merge the schemas into one object',
  not: 'state what is allowed instead',
  if: 'state what is allowed instead',
  // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword; this object is never awaited.
  then: 'state what is allowed instead',
  else: 'state what is allowed instead',
  $ref: 'write the referenced schema inline',
  $dynamicRef: 'write the referenced schema inline',
  patternProperties: 'declare each property by name',
  propertyNames: 'declare each property by name',
  dependentRequired: 'check the combination in the tool and answer with an error',
  dependentSchemas: 'check the combination in the tool and answer with an error',
  dependencies: 'check the combination in the tool and answer with an error',
  unevaluatedProperties: 'declare each property by name',
  unevaluatedItems: 'give the array an items schema',
  minProperties: 'make the properties required',
  maxProperties: 'declare each property by name',
  uniqueItems: 'remove duplicates in the tool',
  contains: 'check the array in the tool',
  minContains: 'check the array in the tool',
  maxContains: 'check the array in the tool',
  prefixItems: 'use an object with named properties',
  contentEncoding: 'check the content in the tool',
  contentMediaType: 'check the content in the tool',
};

const TYPES = new Set(['string', 'integer', 'number', 'boolean', 'array', 'object']);
/** Keywords that apply to one type only; using them on another type is a mistake worth reporting. */
const KEYWORDS_BY_TYPE: Record<string, string[]> = {
  string: ['minLength', 'maxLength', 'pattern', 'format'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  boolean: [],
  array: ['items', 'minItems', 'maxItems'],
  object: ['properties', 'required', 'additionalProperties'],
};
const TYPED_KEYWORDS = new Set(Object.values(KEYWORDS_BY_TYPE).flat());
/** Property names that would reach an object's prototype if bound as plain keys. */
const RESERVED_PROPERTY_NAMES = new Set(['__proto__']);

/**
 * Checks a tool's input schema for constructs the binder cannot check, and returns the schema
 * the model will be shown: `$schema` dropped, `additionalProperties: false` on every object
 * (the binder refuses unknown arguments, so the model is told so), and a format JSON Schema
 * does not define moved into the description.
 */
export function prepareSchema(tool: string, schema: unknown, fromZod = false): PublishedSchema {
  const fail: Fail = (path, code, problem) => {
    throw new ToolDeclarationError(
      code,
      tool,
      path,
      `Tool '${tool}' has an input schema legate cannot use at ${path}: ${problem}`,
    );
  };
  if (!isPlainObject(schema) || schema.type !== 'object') {
    return fail(
      'input',
      'invalid_schema',
      `a tool's input must be an object schema ({ type: 'object', properties: ... }) or a zod object, but it ` +
        `was ${describeValue(schema)}.`,
    );
  }
  return prepareNode(schema, 'input', { fail, fromZod }, 0);
}

interface Context {
  fail: Fail;
  /** The schema zod wrote: zod's own formats carry patterns its own step checks. */
  fromZod: boolean;
}

type Fail = (
  path: string,
  code: 'invalid_schema' | 'unsupported_schema' | 'unsupported_pattern',
  problem: string,
) => never;

/** `levels`: how many arrays and objects enclose this node's value. */
function prepareNode(node: unknown, path: string, context: Context, levels: number): PublishedSchema {
  const { fail } = context;
  if (!isPlainObject(node))
    return fail(path, 'invalid_schema', `a schema must be an object, but it was ${describeValue(node)}.`);
  for (const keyword of Object.keys(node)) {
    const advice = UNCHECKED_KEYWORDS[keyword];
    if (advice !== undefined)
      fail(`${path}.${keyword}`, 'unsupported_schema', `'${keyword}' is not a rule the binder checks; ${advice}.`);
  }
  const published: PublishedSchema = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword !== '$schema') published[keyword] = value;
  }
  checkClosedSet(node, path, fail);
  const type = baseType(node, path, fail);
  if (type === undefined) return published; // a bare enum or const
  for (const keyword of Object.keys(node)) {
    if (TYPED_KEYWORDS.has(keyword) && !KEYWORDS_BY_TYPE[type]!.includes(keyword)) {
      fail(`${path}.${keyword}`, 'invalid_schema', `'${keyword}' does not apply to type '${type}'.`);
    }
  }
  if ((type === 'array' || type === 'object') && levels + 1 > MAX_INPUT_DEPTH) {
    fail(
      path,
      'unsupported_schema',
      `the input may nest at most ${MAX_INPUT_DEPTH} levels of arrays and objects, and this one is level ` +
        `${levels + 1}; flatten the schema.`,
    );
  }
  switch (type) {
    case 'string':
      prepareString(node, published, path, context);
      break;
    case 'integer':
    case 'number':
      prepareNumber(node, path, fail);
      break;
    case 'array':
      checkCount(node, 'minItems', path, fail);
      checkCount(node, 'maxItems', path, fail);
      if (!('items' in node))
        fail(
          path,
          'unsupported_schema',
          `an array needs an 'items' schema, so the binder knows what each item must be.`,
        );
      published.items = prepareNode(node.items, `${path}.items`, context, levels + 1);
      break;
    case 'object':
      prepareObject(node, published, path, context, levels + 1);
      break;
  }
  return published;
}

/** The node's type, with `['T', 'null']` read as T. Undefined for a bare enum or const. */
function baseType(node: Record<string, unknown>, path: string, fail: Fail): string | undefined {
  const type = node.type;
  if (type === undefined) {
    if ('enum' in node || 'const' in node) return undefined;
    return fail(
      path,
      'unsupported_schema',
      `a schema needs a 'type' (or an enum or const), so the binder knows what to expect.`,
    );
  }
  if (typeof type === 'string' && TYPES.has(type)) return type;
  if (
    Array.isArray(type) &&
    type.length === 2 &&
    type[1] === 'null' &&
    typeof type[0] === 'string' &&
    TYPES.has(type[0])
  ) {
    return type[0];
  }
  return fail(
    `${path}.type`,
    'unsupported_schema',
    `the type must be one of ${[...TYPES].join(', ')}, or a pair like ['string', 'null'], but it was ` +
      `${describeValue(type)}.`,
  );
}

function checkClosedSet(node: Record<string, unknown>, path: string, fail: Fail): void {
  const isPrimitive = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  if ('enum' in node) {
    const values = node.enum;
    if (!Array.isArray(values) || values.length === 0 || !values.every(isPrimitive)) {
      fail(
        `${path}.enum`,
        'invalid_schema',
        `an enum must be a non-empty list of strings, numbers, booleans or null, but it was ${describeValue(values)}.`,
      );
    }
  }
  if ('const' in node && !isPrimitive(node.const)) {
    fail(
      `${path}.const`,
      'unsupported_schema',
      `a const must be a string, number, boolean or null, but it was ${describeValue(node.const)}.`,
    );
  }
}

function prepareString(
  node: Record<string, unknown>,
  published: PublishedSchema,
  path: string,
  context: Context,
): void {
  const { fail } = context;
  checkCount(node, 'minLength', path, fail);
  checkCount(node, 'maxLength', path, fail);
  if ('pattern' in node) {
    if (typeof node.pattern !== 'string')
      fail(
        `${path}.pattern`,
        'invalid_schema',
        `a pattern must be a string, but it was ${describeValue(node.pattern)}.`,
      );
    try {
      new RegExp(node.pattern as string, 'u');
    } catch (error) {
      fail(
        `${path}.pattern`,
        'invalid_schema',
        `the pattern does not compile as a regular expression: ${(error as Error).message}.`,
      );
    }
    // A pattern zod attaches to a format of its own (z.hostname(), z.iso.duration(), z.emoji()
    // use lookarounds) is zod's to check, in the step that runs its refinements; the binder
    // skips what it cannot run in linear time. Every other pattern must run in linear time.
    const compiled = compileLinearPattern(node.pattern as string);
    const zodFormat = context.fromZod && typeof node.format === 'string';
    if (compiled instanceof UnsupportedPattern && !zodFormat)
      fail(`${path}.pattern`, 'unsupported_pattern', `${compiled.problem}.`);
  }
  if ('format' in node) {
    const format = node.format;
    if (typeof format !== 'string')
      return void fail(
        `${path}.format`,
        'invalid_schema',
        `a format must be a string, but it was ${describeValue(format)}.`,
      );
    if (!JSON_SCHEMA_FORMATS.has(format)) {
      // Not a JSON Schema format: the model reads it as prose, and a pattern (if any) enforces it.
      delete published.format;
      const description =
        typeof node.description === 'string' && node.description !== '' ? `${node.description}\n\n` : '';
      published.description = `${description}Format: ${format}.`;
    } else if (!FORMAT_CHECKS.has(format)) {
      fail(
        `${path}.format`,
        'unsupported_schema',
        `the binder does not check the '${format}' format; use a pattern instead, or one of ` +
          `${[...FORMAT_CHECKS.keys()].join(', ')}.`,
      );
    }
  }
}

function prepareNumber(node: Record<string, unknown>, path: string, fail: Fail): void {
  for (const keyword of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
    if (keyword in node && (typeof node[keyword] !== 'number' || !Number.isFinite(node[keyword]))) {
      fail(
        `${path}.${keyword}`,
        'invalid_schema',
        `'${keyword}' must be a finite number, but it was ${describeValue(node[keyword])}.`,
      );
    }
  }
  if (
    'multipleOf' in node &&
    !(typeof node.multipleOf === 'number' && node.multipleOf > 0 && Number.isFinite(node.multipleOf))
  ) {
    fail(
      `${path}.multipleOf`,
      'invalid_schema',
      `'multipleOf' must be a number greater than 0, but it was ${describeValue(node.multipleOf)}.`,
    );
  }
}

function prepareObject(
  node: Record<string, unknown>,
  published: PublishedSchema,
  path: string,
  context: Context,
  levels: number,
): void {
  const { fail } = context;
  const properties = node.properties ?? {};
  if (!isPlainObject(properties))
    return void fail(
      `${path}.properties`,
      'invalid_schema',
      `'properties' must be an object of schemas, but it was ${describeValue(properties)}.`,
    );
  const preparedProperties: Record<string, PublishedSchema> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (RESERVED_PROPERTY_NAMES.has(name))
      fail(
        `${path}.properties`,
        'invalid_schema',
        `'${name}' cannot be an argument name: it would reach the object's prototype.`,
      );
    preparedProperties[name] = prepareNode(property, `${path}.properties.${name}`, context, levels);
  }
  published.properties = preparedProperties;
  const required = node.required ?? [];
  if (!Array.isArray(required) || !required.every((name) => typeof name === 'string')) {
    return void fail(
      `${path}.required`,
      'invalid_schema',
      `'required' must be a list of property names, but it was ${describeValue(required)}.`,
    );
  }
  for (const name of required as string[]) {
    if (!(name in preparedProperties)) {
      fail(
        `${path}.required`,
        'invalid_schema',
        `'${name}' is required but is not one of the properties (${
          Object.keys(preparedProperties)
            .map((n) => `'${n}'`)
            .join(', ') || 'none'
        }).`,
      );
    }
  }
  if ('additionalProperties' in node && node.additionalProperties !== false) {
    fail(
      `${path}.additionalProperties`,
      'unsupported_schema',
      'the binder refuses arguments the schema does not declare, so additionalProperties can only be false; ' +
        'declare each property by name.',
    );
  }
  published.additionalProperties = false;
}

function checkCount(node: Record<string, unknown>, keyword: string, path: string, fail: Fail): void {
  if (keyword in node && !(Number.isSafeInteger(node[keyword]) && (node[keyword] as number) >= 0)) {
    fail(
      `${path}.${keyword}`,
      'invalid_schema',
      `'${keyword}' must be a whole number of at least 0, but it was ${describeValue(node[keyword])}.`,
    );
  }
}
