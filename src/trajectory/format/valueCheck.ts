import * as z from 'zod';

/**
 * A check of one value against a part of the format, as fast as that part allows: the plain
 * kinds (a string, one matching patterns, a finite number, a whole number from a minimum, one of
 * a list of words, true or false, any value; optional or nullable) are read off the schema and
 * checked directly, a union by its options (plain ones first); anything else asks the schema
 * itself. The verdict is always the schema's (test/trajectory/valueCheck.property.test.ts holds
 * every schema of the format to it).
 */
export function valueCheck(schema: z.ZodType): (value: unknown) => boolean {
  return plainCheck(schema) ?? ((value) => schema.safeParse(value).success);
}

function plainCheck(schema: z.ZodType): ((value: unknown) => boolean) | undefined {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) {
    const inner = plainCheck(schema.unwrap() as z.ZodType);
    if (inner === undefined) return undefined;
    const absent = schema instanceof z.ZodOptional ? undefined : null;
    return (value) => value === absent || inner(value);
  }
  if (schema instanceof z.ZodUnknown) return () => true;
  if (schema instanceof z.ZodBoolean) return (value) => typeof value === 'boolean';
  if (schema instanceof z.ZodEnum) {
    const words = new Set<unknown>(Object.values(schema._zod.def.entries));
    return (value) => words.has(value);
  }
  const def = schema._zod.def as { format?: string; checks?: { _zod: { def: unknown } }[] };
  const checks = (def.checks ?? []).map((check) => check._zod.def as CheckDef);
  if (schema instanceof z.ZodString && def.format === undefined) {
    if (checks.length === 0) return (value) => typeof value === 'string';
    const patterns = checks.map((check) => (check.check === 'string_format' ? patternOf(check) : undefined));
    if (patterns.some((pattern) => pattern === undefined)) return undefined;
    const all = patterns as RegExp[];
    return (value) =>
      typeof value === 'string' &&
      all.every((pattern) => {
        pattern.lastIndex = 0;
        return pattern.test(value);
      });
  }
  if (schema instanceof z.ZodNumber && def.format === undefined && checks.length === 0) {
    return (value) => typeof value === 'number' && Number.isFinite(value);
  }
  if (schema instanceof z.ZodNumber && def.format === 'safeint') {
    const [check, ...others] = checks;
    if (others.length > 0) return undefined;
    if (check === undefined) return (value) => Number.isSafeInteger(value);
    if (check.check !== 'greater_than' || check.inclusive !== true || typeof check.value !== 'number') return undefined;
    const minimum = check.value;
    return (value) => Number.isSafeInteger(value) && (value as number) >= minimum;
  }
  if (schema instanceof z.ZodUnion) {
    // A value a union's option takes is the union's: the plain options are asked first, the others by their schema
    // (a file's `input: text` is then never parsed by the list-of-blocks option).
    const options = (schema.options as z.ZodType[]).map((option) => ({ option, plain: plainCheck(option) }));
    const checks = [
      ...options.flatMap(({ plain }) => (plain === undefined ? [] : [plain])),
      ...options.flatMap(({ option, plain }) =>
        plain === undefined ? [(value: unknown) => option.safeParse(value).success] : [],
      ),
    ];
    return (value) => checks.some((check) => check(value));
  }
  return undefined;
}

/** What the plain checks read of a zod check's definition. */
interface CheckDef {
  check: string;
  value?: unknown;
  inclusive?: boolean;
  format?: string;
  pattern?: unknown;
}

/** A `.regex()` check's pattern, tested as zod tests it (from the start, whatever a global or sticky flag kept). */
function patternOf(check: CheckDef): RegExp | undefined {
  if (check.format !== 'regex' || !(check.pattern instanceof RegExp)) return undefined;
  return check.pattern;
}
