import { isPlainObject } from '../../json/jsonValue.js';
import { ToolDeclarationError } from '../declarationError.js';
import { FORMAT_CHECKS } from '../schema/formats.js';
import type { PublishedSchema } from '../schema/prepareSchema.js';
import { describeExpectation } from './expectation.js';
import { Refusal } from './invalidArgument.js';

/**
 * A compiled check for one schema node: returns the bound value (defaults applied, nulls
 * dropped) or a {@link Refusal}. It never throws, so the binder never throws.
 */
export type Validator = (value: unknown) => unknown;

interface CompileContext {
  tool: string;
  path: string;
}

/**
 * Compiles a published schema into a tree of small closures, once, when the tool is defined:
 * every keyword is read and every message phrase is built here, so a call only compares.
 */
export function compileSchema(tool: string, schema: PublishedSchema): Validator {
  return compileObject(schema, { tool, path: 'input' }, true);
}

function compileNode(schema: PublishedSchema, context: CompileContext): Validator {
  const expected = describeExpectation(schema);
  const typed = compileByType(schema, context, expected);
  const closed = compileClosedSet(schema, expected, typed);
  if (!Array.isArray(schema.type)) return closed;
  // ['T', 'null']: null is a value of its own here, not an absence.
  return (value) => (value === null ? null : closed(value));
}

function compileByType(schema: PublishedSchema, context: CompileContext, expected: string): Validator {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return compileString(schema, expected);
    case 'integer':
      return compileNumber(schema, expected, true);
    case 'number':
      return compileNumber(schema, expected, false);
    case 'boolean':
      return (value) => (typeof value === 'boolean' ? value : Refusal.of('invalid_type', expected, value));
    case 'array':
      return compileArray(schema, context, expected);
    case 'object':
      return compileObject(schema, context, false);
    default:
      return (value) => value; // a bare enum or const: the closed set decides
  }
}

function compileClosedSet(schema: PublishedSchema, expected: string, inner: Validator): Validator {
  const allowed: unknown[] | undefined = 'const' in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined;
  if (allowed === undefined) return inner;
  const set = new Set(allowed);
  return (value) => {
    const bound = inner(value);
    if (bound instanceof Refusal) return bound;
    return set.has(bound) ? bound : Refusal.of('not_a_known_value', expected, value);
  };
}

function compileString(schema: PublishedSchema, expected: string): Validator {
  const minLength = schema.minLength as number | undefined;
  const maxLength = schema.maxLength as number | undefined;
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined;
  const format = typeof schema.format === 'string' ? FORMAT_CHECKS.get(schema.format) : undefined;
  const lengthRefusal = (code: 'too_long' | 'too_short', value: string, length: number) => {
    const refusal = Refusal.of(code, expected, value);
    return new Refusal(code, expected, `${refusal.arrived} (${length} character${length === 1 ? '' : 's'})`);
  };
  return (value) => {
    if (typeof value !== 'string') return Refusal.of('invalid_type', expected, value);
    if (minLength !== undefined || maxLength !== undefined) {
      // UTF-16 length bounds the character count from above, so most strings need no count.
      const length = maxLength !== undefined && value.length <= maxLength && (minLength ?? 0) === 0 ? 0 : countCharacters(value);
      if (maxLength !== undefined && length > maxLength) return lengthRefusal('too_long', value, length);
      if (minLength !== undefined && length < minLength) return lengthRefusal('too_short', value, length);
    }
    if (pattern !== undefined && !pattern.test(value)) return Refusal.of('invalid_format', expected, value);
    if (format !== undefined && !format(value)) return Refusal.of('invalid_format', expected, value);
    return value;
  };
}

/** Characters as JSON Schema counts them: code points, a surrogate pair counting once. */
function countCharacters(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

function compileNumber(schema: PublishedSchema, expected: string, integer: boolean): Validator {
  const limit = integer ? Number.MAX_SAFE_INTEGER : Number.MAX_VALUE;
  const min = Math.max(typeof schema.minimum === 'number' ? schema.minimum : -limit, -limit);
  const max = Math.min(typeof schema.maximum === 'number' ? schema.maximum : limit, limit);
  const exclusiveMin = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : -Infinity;
  const exclusiveMax = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : Infinity;
  const multipleOf = typeof schema.multipleOf === 'number' ? schema.multipleOf : undefined;
  return (value) => {
    if (typeof value !== 'number') return refuseNonNumber(expected, value);
    // NaN fails every comparison, so it lands here too: refused, never saturated.
    if (!(value >= min && value <= max && value > exclusiveMin && value < exclusiveMax)) {
      return Refusal.of('out_of_range', expected, value);
    }
    if (integer && !Number.isInteger(value)) return Refusal.of('invalid_type', expected, value);
    if (multipleOf !== undefined && !isMultiple(value, multipleOf)) return Refusal.of('out_of_range', expected, value);
    return value;
  };
}

/** A number sent as text is refused, with a hint the model can act on. */
function refuseNonNumber(expected: string, value: unknown): Refusal {
  const refusal = Refusal.of('invalid_type', expected, value);
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
    return new Refusal('invalid_type', expected, `${refusal.arrived}; send the number itself, not a string`);
  }
  return refusal;
}

function isMultiple(value: number, divisor: number): boolean {
  const quotient = value / divisor;
  // Tolerate binary floating-point noise (0.3 / 0.1 = 2.9999999999999996).
  return Math.abs(quotient - Math.round(quotient)) < 1e-9;
}

function compileArray(schema: PublishedSchema, context: CompileContext, expected: string): Validator {
  const item = compileNode(schema.items as PublishedSchema, { ...context, path: `${context.path}.items` });
  const minItems = schema.minItems as number | undefined;
  const maxItems = schema.maxItems as number | undefined;
  const countRefusal = (code: 'too_long' | 'too_short', length: number) =>
    new Refusal(code, expected, `it had ${length} item${length === 1 ? '' : 's'}`);
  return (value) => {
    if (!Array.isArray(value)) return Refusal.of('invalid_type', expected, value);
    if (minItems !== undefined && value.length < minItems) return countRefusal('too_short', value.length);
    if (maxItems !== undefined && value.length > maxItems) return countRefusal('too_long', value.length);
    const bound = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const result = item(value[i]);
      if (result instanceof Refusal) return result.at(i);
      bound[i] = result;
    }
    return bound;
  };
}

interface Property {
  key: string;
  required: boolean;
  /** A null stands for itself only where the schema allows null; elsewhere it means "absent". */
  acceptsNull: boolean;
  defaultValue: unknown;
  hasDefault: boolean;
  expected: string;
  validate: Validator;
}

function compileObject(schema: PublishedSchema, context: CompileContext, root: boolean): Validator {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const properties = Object.entries((schema.properties as Record<string, PublishedSchema> | undefined) ?? {}).map(
    ([key, propertySchema]): Property => {
      const path = `${context.path}.properties.${key}`;
      const validate = compileNode(propertySchema, { ...context, path });
      const hasDefault = 'default' in propertySchema;
      if (hasDefault) checkDefault(context.tool, path, validate, propertySchema.default);
      return {
        key,
        required: required.has(key),
        acceptsNull: acceptsNull(propertySchema),
        defaultValue: propertySchema.default,
        hasDefault,
        expected: describeExpectation(propertySchema),
        validate,
      };
    },
  );
  const names = properties.map((p) => `'${p.key}'`).join(', ');
  const allowedPhrase = root
    ? properties.length === 0 ? 'it takes no arguments' : `its arguments are ${names}`
    : properties.length === 0 ? 'it has no members' : `its members are ${names}`;
  const expected = root ? 'an object of named arguments' : describeExpectation(schema);
  const declared = new Set(properties.map((p) => p.key));

  return (value) => {
    if (!isPlainObject(value)) return Refusal.of('invalid_type', expected, value);
    const bound: Record<string, unknown> = {};
    let seen = 0;
    for (const property of properties) {
      const present = Object.hasOwn(value, property.key);
      if (present) seen++;
      const raw = present ? value[property.key] : undefined;
      if (raw === undefined || (raw === null && !property.acceptsNull)) {
        if (property.hasDefault) bound[property.key] = copyDefault(property.defaultValue);
        else if (property.required) return missing(property, raw).at(property.key);
        continue;
      }
      const result = property.validate(raw);
      if (result instanceof Refusal) return result.at(property.key);
      bound[property.key] = result;
    }
    if (seen !== countOwnKeys(value)) {
      for (const key of Object.keys(value)) {
        if (!declared.has(key)) return new Refusal('unknown_argument', allowedPhrase, '').at(key);
      }
    }
    return bound;
  };
}

function missing(property: Property, raw: unknown): Refusal {
  const arrived = raw === null ? 'it was null, which counts as missing' : 'it was missing';
  return new Refusal('required', property.expected, arrived);
}

function acceptsNull(schema: PublishedSchema): boolean {
  return Array.isArray(schema.type) || schema.const === null || (Array.isArray(schema.enum) && schema.enum.includes(null));
}

function countOwnKeys(value: object): number {
  let count = 0;
  for (const key in value) if (Object.hasOwn(value, key)) count++;
  return count;
}

function copyDefault(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}

function checkDefault(tool: string, path: string, validate: Validator, value: unknown): void {
  const result = validate(value);
  if (result instanceof Refusal) {
    throw new ToolDeclarationError(
      'invalid_default',
      tool,
      `${path}.default`,
      `Tool '${tool}' has a default at ${path}.default that its own schema refuses: it must be ${result.expected}, but ${result.arrived}.`,
    );
  }
}
