import * as z from 'zod';

/**
 * A check of one value against a part of the format, as fast as that part allows: the plain
 * kinds (a string, a whole number from a minimum, one of a list of words, true or false, any
 * value) are read off the schema and checked directly; anything else asks the schema itself.
 * The verdict is always the schema's (a test holds the reader's walk and the schema to it).
 */
export function valueCheck(schema: z.ZodType): (value: unknown) => boolean {
  return plainCheck(schema) ?? ((value) => schema.safeParse(value).success);
}

function plainCheck(schema: z.ZodType): ((value: unknown) => boolean) | undefined {
  if (schema instanceof z.ZodUnknown) return () => true;
  if (schema instanceof z.ZodBoolean) return (value) => typeof value === 'boolean';
  if (schema instanceof z.ZodEnum) {
    const words = new Set<unknown>(Object.values(schema._zod.def.entries));
    return (value) => words.has(value);
  }
  const def = schema._zod.def as { format?: string; checks?: { _zod: { def: unknown } }[] };
  const checks = (def.checks ?? []).map(
    (check) => check._zod.def as { check: string; value?: unknown; inclusive?: boolean },
  );
  if (schema instanceof z.ZodString && def.format === undefined && checks.length === 0) {
    return (value) => typeof value === 'string';
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
    const options = (schema.options as z.ZodType[]).map(plainCheck);
    if (options.some((option) => option === undefined)) return undefined;
    const plain = options as ((value: unknown) => boolean)[];
    return (value) => plain.some((check) => check(value));
  }
  return undefined;
}
