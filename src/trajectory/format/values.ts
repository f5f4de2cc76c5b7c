import * as z from 'zod';

/**
 * The kinds of value the trajectory format holds, each with the words a reader uses when a
 * file holds something else ("should be a whole number of at least 0, but it was ...").
 * Every field of the format is built from these, so the words are written once.
 */

/** How the writer lays out a field, beside what the field holds. Kept out of the JSON Schema. */
interface LayoutHint {
  /**
   * A value whose shape the format does not fix (a tool's input, a server block): written as
   * YAML, or as JSON text under `<key>Json` when it nests too deep for YAML. Read either way.
   */
  free?: true;
  /** A small map or list written on one line: `usage: { input: 12, output: 3 }`. */
  flow?: true;
}

export const layout = z.registry<LayoutHint>();

/** A free value: see {@link LayoutHint.free}. Hints add up: a value may be free and on one line. */
export function free<T extends z.ZodType>(schema: T): T {
  layout.add(schema as z.ZodType, { ...layout.get(schema as z.ZodType), free: true });
  return schema;
}

/** A field written on one line: see {@link LayoutHint.flow}. */
export function flow<T extends z.ZodType>(schema: T): T {
  layout.add(schema as z.ZodType, { ...layout.get(schema as z.ZodType), flow: true });
  return schema;
}

/** The words for what a value should have been, as a zod error customisation. */
const says = (expected: string) => ({ error: () => expected });

export const text = (words = 'a string') => z.string(says(words));
export const wholeFrom = (minimum: number) => {
  const words = says(`a whole number of at least ${minimum}`);
  return z.int(words).min(minimum, words);
};
export const count = () => wholeFrom(0);
/** A moment, as legate writes one (`Date.prototype.toISOString`); a UTC offset is also read. */
export const moment = () =>
  z.iso.datetime({ offset: true, ...says('an ISO 8601 date and time, like 2026-11-29T18:00:00.000Z') });
export const real = () => z.number(says('a number'));
export const flag = () => z.boolean(says('true or false'));
export const oneOf = <const T extends readonly [string, ...string[]]>(
  values: T,
  words = `one of ${values.join(', ')}`,
) => z.enum(values, says(words));
export const list = <T extends z.ZodType>(item: T) => z.array(item, says('a list'));
export const mapping = <T extends z.core.$ZodLooseShape>(shape: T) => z.object(shape, says('a mapping'));
/** A mapping that keeps the fields the format does not name: a Messages API block, stored as the API sent it. */
export const openMapping = <T extends z.core.$ZodLooseShape>(shape: T) => z.looseObject(shape, says('a mapping'));
export const namedMappings = <T extends z.ZodType>(value: T) => z.record(z.string(), value, says('a mapping'));
/** One of several forms, each named, for the message when a value is none of them. */
export const either = <const T extends readonly [z.ZodType, ...z.ZodType[]]>(options: T, words: string) =>
  z.union(options, says(words));

/**
 * A schema whose TypeScript type another layer declares (a Messages API block, stored as the
 * API sent it): checked as `schema` says, typed as `T`.
 */
export const typedAs = <T>(schema: z.ZodType): z.ZodType<T> => schema as unknown as z.ZodType<T>;
