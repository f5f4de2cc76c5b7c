import fc from 'fast-check';
import type { PublishedSchema } from '../../tools/schema/prepareSchema.js';
import { isMultipleOf } from '../../tools/binder/isMultipleOf.js';

/** Text that has broken parsers before: zero-width, right-to-left, combining, astral and lone surrogate characters. */
export const AWKWARD_TEXT = ['\u200B', '\u202E', '\u0301', '😀', '\uFEFF', '\u2028', 'é', '\u0000', '\uD800', '\uDFFF'];

/**
 * Values a schema node accepts, as the binder reads it: every constraint the model was shown
 * is met, so the binder must accept each one.
 */
export function arbitraryOf(schema: PublishedSchema): fc.Arbitrary<unknown> {
  const base = nonNullValueOf(schema);
  return Array.isArray(schema.type) ? fc.oneof(base, fc.constant(null)) : base;
}

function nonNullValueOf(schema: PublishedSchema): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]).filter((v) => v !== null));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringOf(schema);
    case 'integer':
      return integerOf(schema);
    case 'number':
      return numberOf(schema);
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const min = (schema.minItems as number | undefined) ?? 0;
      const max = Math.min((schema.maxItems as number | undefined) ?? min + 4, min + 4);
      return fc.array(arbitraryOf(schema.items as PublishedSchema), { minLength: min, maxLength: max });
    }
    case 'object':
      return objectOf(schema);
    default:
      return fc.jsonValue();
  }
}

export function objectOf(schema: PublishedSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties as Record<string, PublishedSchema> | undefined) ?? {};
  const required = (schema.required as string[] | undefined) ?? [];
  const record = Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, arbitraryOf(property)]));
  return fc.record(record, { requiredKeys: required.filter((key) => key in properties) });
}

const FORMAT_VALUES: Record<string, fc.Arbitrary<string>> = {
  email: fc
    .emailAddress()
    .filter((email) => /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(email)),
  uuid: fc.uuid(),
  'date-time': fc
    .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString()),
  date: fc
    .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  time: fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }))
    .map(([h, m, s]) => `${pad(h)}:${pad(m)}:${pad(s)}Z`),
  ipv4: fc.ipV4(),
  ipv6: fc.ipV6(),
  uri: fc.webUrl(),
  hostname: fc.domain(),
  duration: fc.tuple(fc.nat(99), fc.nat(59)).map(([h, m]) => `PT${h}H${m}M`),
};

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function stringOf(schema: PublishedSchema): fc.Arbitrary<string> {
  const min = (schema.minLength as number | undefined) ?? 0;
  const max = (schema.maxLength as number | undefined) ?? Math.max(min, 40);
  const fits = (text: string) => {
    const length = [...text].length;
    return length >= min && length <= max;
  };
  if (typeof schema.pattern === 'string') return matching(schema.pattern).filter(fits);
  if (typeof schema.format === 'string' && FORMAT_VALUES[schema.format] !== undefined)
    return FORMAT_VALUES[schema.format]!.filter(fits);
  const unit = fc.oneof(
    { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
    { weight: 1, arbitrary: fc.constantFrom(...AWKWARD_TEXT) },
  );
  const ordinary = fc
    .array(unit, { minLength: min, maxLength: Math.min(max, min + 40) })
    .map((parts) => parts.join(''));
  // Now and then a very long text, as long as the schema allows.
  const long = fc.constantFrom('x', '😀', '\u202E').map((c) => c.repeat(Math.max(min, Math.min(max, 20_000))));
  return fc.oneof({ weight: 20, arbitrary: ordinary }, { weight: 1, arbitrary: long }).filter(fits);
}

function integerOf(schema: PublishedSchema): fc.Arbitrary<number> {
  const { min, max } = bounds(schema, true);
  return fc.integer({ min: Math.ceil(min), max: Math.floor(max) }).filter((n) => multipleOk(schema, n));
}

function numberOf(schema: PublishedSchema): fc.Arbitrary<number> {
  const { min, max } = bounds(schema, false);
  const divisor = schema.multipleOf;
  if (typeof divisor === 'number') {
    // Multiples as decimals (3 × 0.01 is 0.03, not 0.030000000000000002), the way the binder reads them.
    const lowest = Math.max(Math.ceil(min / divisor), -Number.MAX_SAFE_INTEGER);
    const highest = Math.min(Math.floor(max / divisor), Number.MAX_SAFE_INTEGER);
    if (lowest <= highest) {
      return fc
        .integer({ min: lowest, max: highest })
        .map((k) => Number((k * divisor).toPrecision(15)))
        .filter((n) => n >= min && n <= max && multipleOk(schema, n));
    }
  }
  return fc
    .double({ min, max, noNaN: true, noDefaultInfinity: true, minExcluded: false, maxExcluded: false })
    .filter((n) => Number.isFinite(n) && multipleOk(schema, n));
}

function bounds(schema: PublishedSchema, integer: boolean): { min: number; max: number } {
  const limit = integer ? Number.MAX_SAFE_INTEGER : Number.MAX_VALUE;
  let min = typeof schema.minimum === 'number' ? schema.minimum : -limit;
  let max = typeof schema.maximum === 'number' ? schema.maximum : limit;
  if (typeof schema.exclusiveMinimum === 'number')
    min = Math.max(min, integer ? Math.floor(schema.exclusiveMinimum) + 1 : nextUp(schema.exclusiveMinimum));
  if (typeof schema.exclusiveMaximum === 'number')
    max = Math.min(max, integer ? Math.ceil(schema.exclusiveMaximum) - 1 : nextDown(schema.exclusiveMaximum));
  return { min, max };
}

function nextUp(n: number): number {
  return n === 0 ? Number.MIN_VALUE : n + Math.abs(n) * Number.EPSILON;
}

function nextDown(n: number): number {
  return n === 0 ? -Number.MIN_VALUE : n - Math.abs(n) * Number.EPSILON;
}

function multipleOk(schema: PublishedSchema, n: number): boolean {
  if (typeof schema.multipleOf !== 'number') return true;
  return isMultipleOf(n, schema.multipleOf);
}

/**
 * Texts a pattern matches. fast-check's generator misreads a few escapes and cannot generate for
 * word boundaries, so it is given the pattern rewritten without them (`\cJ` as `\x0a`, `[\b]`
 * as `[\x08]`, `\b` and `\B` dropped), and where a boundary was dropped only the texts the
 * whole pattern matches are kept.
 */
function matching(source: string): fc.Arbitrary<string> {
  const pattern = new RegExp(source, 'u');
  const { rewritten, droppedBoundary } = forGenerator(source);
  const texts = fc.stringMatching(new RegExp(rewritten, 'u'));
  return droppedBoundary ? texts.filter((text) => pattern.test(text)) : texts;
}

function forGenerator(source: string): { rewritten: string; droppedBoundary: boolean } {
  let rewritten = '';
  let inClass = false;
  let droppedBoundary = false;
  const hex = (code: number) => `\\x${code.toString(16).padStart(2, '0')}`;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (next === 'c' && /[A-Za-z]/.test(source[i + 2] ?? '')) {
        rewritten += hex(source.charCodeAt(i + 2) % 32);
        i += 2;
        continue;
      }
      if (inClass && next === 'b') rewritten += hex(8);
      else if (!inClass && (next === 'b' || next === 'B')) droppedBoundary = true;
      else rewritten += c + next;
      i++;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    rewritten += c;
  }
  return { rewritten, droppedBoundary };
}
