import { describeValue } from '../../json/describeValue.js';
import { isPlainObject } from '../../json/jsonValue.js';
import { FORMAT_CHECKS, JSON_SCHEMA_FORMATS } from './formats.js';
import { compileLinearPattern, UnsupportedPattern } from './linearPattern.js';
import { JSON_TYPES, KEYWORDS, type JsonType } from './schemaKeywords.js';
import type { SchemaProblems } from './schemaProblems.js';

type Schema = Record<string, unknown>;

/** Property names that would reach an object's prototype if bound as plain keys. */
export const RESERVED_PROPERTY_NAMES: ReadonlySet<string> = new Set(['__proto__']);

/**
 * Checks the value of every keyword the binder reads (a count is a whole number, a pattern
 * compiles and runs in linear time, ...) and that each typed keyword applies to the node's
 * type. `node` is already normalised; `published` is the copy the model is shown, which a
 * format JSON Schema does not define is moved out of (into the description).
 */
export function checkKeywordValues(
  node: Schema,
  published: Schema,
  path: string,
  problems: SchemaProblems,
  fromZod: boolean,
): void {
  const types = declaredTypes(node, path, problems);
  if (types !== undefined) {
    for (const [keyword, value] of Object.entries(node)) {
      const applies =
        KEYWORDS[keyword]?.role === 'checked' ? (KEYWORDS[keyword] as { types?: JsonType[] }).types : undefined;
      if (value === undefined || applies === undefined) continue;
      if (!applies.some((t) => types.includes(t) || (t === 'integer' && types.includes('number'))))
        problems.warn(
          `${path}.${keyword}`,
          `'${keyword}' does not apply to type ${types.map((t) => `'${t}'`).join(' or ')}, so nothing checks it; ` +
            'move it to the schema of the value it is meant for, or remove it.',
        );
    }
  }
  if ('enum' in node && (!Array.isArray(node.enum) || node.enum.length === 0))
    problems.add(
      `${path}.enum`,
      'invalid_schema',
      `an enum must be a non-empty list of values, but it was ${describeValue(node.enum)}.`,
    );
  for (const keyword of [
    'minLength',
    'maxLength',
    'minItems',
    'maxItems',
    'minProperties',
    'maxProperties',
    'minContains',
    'maxContains',
  ])
    checkCount(node, keyword, path, problems);
  for (const keyword of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
    if (keyword in node && (typeof node[keyword] !== 'number' || !Number.isFinite(node[keyword])))
      problems.add(
        `${path}.${keyword}`,
        'invalid_schema',
        `'${keyword}' must be a finite number, but it was ${describeValue(node[keyword])}.`,
      );
  }
  if (
    'multipleOf' in node &&
    !(typeof node.multipleOf === 'number' && node.multipleOf > 0 && Number.isFinite(node.multipleOf))
  )
    problems.add(
      `${path}.multipleOf`,
      'invalid_schema',
      `'multipleOf' must be a number greater than 0, but it was ${describeValue(node.multipleOf)}.`,
    );
  if ('uniqueItems' in node && typeof node.uniqueItems !== 'boolean')
    problems.add(
      `${path}.uniqueItems`,
      'invalid_schema',
      `'uniqueItems' must be true or false, but it was ${describeValue(node.uniqueItems)}.`,
    );
  if ('pattern' in node)
    checkPattern(node.pattern, `${path}.pattern`, problems, fromZod && typeof node.format === 'string');
  if ('format' in node) checkFormat(node, published, path, problems, types);
  if (isPlainObject(node.patternProperties))
    for (const pattern of Object.keys(node.patternProperties))
      checkPattern(pattern, `${path}.patternProperties.${pattern}`, problems, false);
  checkObjectKeywords(node, path, problems);
}

/** The node's `type` as a list, or undefined when it has none; a bad `type` is reported. */
export function declaredTypes(node: Schema, path: string, problems?: SchemaProblems): JsonType[] | undefined {
  const type = node.type;
  if (type === undefined) return undefined;
  const list = Array.isArray(type) ? type : [type];
  if (list.length > 0 && list.every((t) => JSON_TYPES.includes(t as JsonType)) && new Set(list).size === list.length)
    return list as JsonType[];
  problems?.add(
    `${path}.type`,
    'invalid_schema',
    `the type must be one of ${JSON_TYPES.join(', ')}, or a list of them like ['string', 'null'], but it was ` +
      `${describeValue(type)}.`,
  );
  return undefined;
}

function checkObjectKeywords(node: Schema, path: string, problems: SchemaProblems): void {
  for (const keyword of ['properties', 'patternProperties', 'dependentRequired'] as const) {
    if (keyword in node && !isPlainObject(node[keyword]))
      problems.add(
        `${path}.${keyword}`,
        'invalid_schema',
        `'${keyword}' must be an object, but it was ${describeValue(node[keyword])}.`,
      );
  }
  const properties = isPlainObject(node.properties) ? node.properties : {};
  for (const name of Object.keys(properties)) {
    if (RESERVED_PROPERTY_NAMES.has(name))
      problems.add(
        `${path}.properties`,
        'invalid_schema',
        `'${name}' cannot be an argument name: it would reach the object's prototype.`,
      );
  }
  if (isPlainObject(node.dependentRequired)) {
    for (const [name, names] of Object.entries(node.dependentRequired)) {
      if (!Array.isArray(names) || !names.every((n) => typeof n === 'string'))
        problems.add(
          `${path}.dependentRequired.${name}`,
          'invalid_schema',
          `must be a list of property names, but it was ${describeValue(names)}.`,
        );
    }
  }
  if (!('required' in node)) return;
  const required = node.required;
  if (!Array.isArray(required) || !required.every((name) => typeof name === 'string')) {
    problems.add(
      `${path}.required`,
      'invalid_schema',
      `'required' must be a list of property names, but it was ${describeValue(required)}.`,
    );
    return;
  }
  // A required name nothing may hold could never be sent: a mistake worth reporting.
  const closed = node.additionalProperties === false && !isPlainObject(node.patternProperties);
  for (const name of required as string[]) {
    if (closed && !Object.hasOwn(properties, name)) {
      const names =
        Object.keys(properties)
          .map((n) => `'${n}'`)
          .join(', ') || 'none';
      problems.add(
        `${path}.required`,
        'invalid_schema',
        `'${name}' is required but is not one of the properties (${names}).`,
      );
    }
  }
}

function checkPattern(pattern: unknown, path: string, problems: SchemaProblems, zodFormat: boolean): void {
  if (typeof pattern !== 'string') {
    problems.add(path, 'invalid_schema', `a pattern must be a string, but it was ${describeValue(pattern)}.`);
    return;
  }
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    problems.add(
      path,
      'invalid_schema',
      `the pattern does not compile as a regular expression: ${(error as Error).message}.`,
    );
    return;
  }
  // A pattern zod attaches to a format of its own (z.hostname(), z.iso.duration(), z.emoji()
  // use lookarounds) is zod's to check, in the step that runs its refinements; the binder
  // skips what it cannot run in linear time. Every other pattern must run in linear time.
  const compiled = compileLinearPattern(pattern);
  if (compiled instanceof UnsupportedPattern && !zodFormat)
    problems.add(path, 'unsupported_pattern', `${compiled.problem}.`);
}

function checkFormat(
  node: Schema,
  published: Schema,
  path: string,
  problems: SchemaProblems,
  types: JsonType[] | undefined,
): void {
  const format = node.format;
  if (typeof format !== 'string') {
    problems.add(`${path}.format`, 'invalid_schema', `a format must be a string, but it was ${describeValue(format)}.`);
    return;
  }
  if (!JSON_SCHEMA_FORMATS.has(format)) {
    // OpenAPI's int32, int64, float, double, byte, password: prose for the model, on any type.
    // Not a JSON Schema format: the model reads it as prose, and a pattern (if any) enforces it.
    delete published.format;
    const description =
      typeof node.description === 'string' && node.description !== '' ? `${node.description}\n\n` : '';
    published.description = `${description}Format: ${format}.`;
  } else if (!FORMAT_CHECKS.has(format) && (types === undefined || types.includes('string'))) {
    problems.add(
      `${path}.format`,
      'unsupported_schema',
      `the binder does not check the '${format}' format; use a pattern instead, or one of ` +
        `${[...FORMAT_CHECKS.keys()].join(', ')}.`,
    );
  }
}

function checkCount(node: Schema, keyword: string, path: string, problems: SchemaProblems): void {
  if (keyword in node && !(Number.isSafeInteger(node[keyword]) && (node[keyword] as number) >= 0))
    problems.add(
      `${path}.${keyword}`,
      'invalid_schema',
      `'${keyword}' must be a whole number of at least 0, but it was ${describeValue(node[keyword])}.`,
    );
}
