import { isPlainObject } from '../json/jsonValue.js';

/** How a named value is written as `name=value` pairs: a query parameter's `style` and `explode`, or a form field's. */
export interface PairStyle {
  readonly style: string;
  readonly explode: boolean;
}

/**
 * The `name=value` pairs one named value is written as, in a query string or a form body
 * (`application/x-www-form-urlencoded`), by its OpenAPI style, every name and value percent-encoded
 * with encodeURIComponent:
 * - `form` (the default): an array as `ids=1&ids=2`, or `ids=1,2` unexploded; an object's members as
 *   pairs of their own (`size=10&after=k`), or `page=size,10,after,k` unexploded;
 * - `spaceDelimited` (`ids=1%202`) and `pipeDelimited` (`ids=1|2`) for arrays;
 * - `deepObject`: brackets, nested to any depth, an array's items by their index:
 *   `metadata%5Border%5D=6735` (`metadata[order]=6735`), `expand%5B0%5D=customer`,
 *   `items%5B0%5D%5Bprice%5D=p`, as Stripe reads its form bodies and Rails and PHP read any.
 * A member or item inside a value that is written as one string (an object in an array) is JSON.
 */
export function formPairs(name: string, value: unknown, { style, explode }: PairStyle): string[] {
  const key = enc(name);
  if (style === 'deepObject') return bracketed(key, value);
  if (Array.isArray(value)) {
    if (explode) return value.map((item) => `${key}=${enc(item)}`);
    const separator = style === 'spaceDelimited' ? '%20' : style === 'pipeDelimited' ? '|' : ',';
    return [`${key}=${value.map(enc).join(separator)}`];
  }
  if (isPlainObject(value)) {
    const entries = present(value);
    if (explode) return entries.map(([k, v]) => `${enc(k)}=${enc(v)}`);
    return [`${key}=${entries.map(([k, v]) => `${enc(k)},${enc(v)}`).join(',')}`];
  }
  return [`${key}=${enc(value)}`];
}

/** `key[member]=value` for each value under `value`, arrays by index; an empty array or object writes nothing. */
function bracketed(key: string, value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => bracketed(`${key}%5B${i}%5D`, item));
  if (isPlainObject(value)) return present(value).flatMap(([k, v]) => bracketed(`${key}%5B${enc(k)}%5D`, v));
  return [`${key}=${enc(value)}`];
}

const present = (value: Record<string, unknown>): [string, unknown][] =>
  Object.entries(value).filter(([, v]) => v !== undefined);

/** A value as text, percent-encoded: JSON for an object or array, `null` for null. */
export const enc = (value: unknown): string =>
  encodeURIComponent(value === null ? 'null' : typeof value === 'object' ? JSON.stringify(value) : String(value));
