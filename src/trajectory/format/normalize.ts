import { describeValue } from '../../json/describeValue.js';
import { isPlainObject } from '../../json/jsonValue.js';
import { FieldError, formatPath } from '../field.js';
import { optionFor, type ObjectPlan, type Plan } from './plan.js';

/**
 * A parsed document, walked by the format's plan, made into the value the format describes:
 * free values written as JSON text (`inputJson`) read back, an optional field written as null
 * taken as absent (unless null is one of its values: `stopDetails: null` is kept), and fields
 * the format does not know left out (files from a newer minor
 * version still read). Whatever does not fit the plan is passed on as it is, for the format's
 * schema to report; only a free value's JSON text is refused here.
 *
 * The same walk checks the value: `fits` is true when every mapping has its required fields,
 * every list is a list, every union takes one of its forms and every scalar and free value
 * passes its own schema, which is exactly what the format's schema checks (a test holds the two
 * to the same verdict). A file that fits needs no second walk; one that does not is given to
 * the schema, whose first issue becomes the located error.
 */
export function normalize(value: unknown, plan: Plan): { value: unknown; fits: boolean } {
  const walker = new Walker();
  const read = walker.walk(value, plan);
  return { value: read, fits: walker.fits };
}

class Walker {
  fits = true;
  /** The way down to the value being walked, one stack (pushed and popped) so a walk allocates no paths. */
  readonly path: (string | number)[] = [];

  walk(value: unknown, plan: Plan): unknown {
    switch (plan.kind) {
      case 'object':
        return this.#object(value, plan);
      case 'list':
        if (!Array.isArray(value)) return this.#misfit(value);
        return value.map((item, i) => this.#at(i, item, plan.item));
      case 'record':
        if (!isPlainObject(value)) return this.#misfit(value);
        return Object.fromEntries(
          Object.entries(value).map(([name, item]) => [name, this.#at(name, item, plan.value)]),
        );
      case 'union': {
        const option = optionFor(plan, value);
        if (option === undefined) return this.#misfit(value);
        // A scalar may take any of the union's scalar forms (a path key: a string or a count).
        if (option.kind === 'leaf') return this.#checked(value, plan.check);
        return this.walk(value, option);
      }
      case 'leaf':
        return this.#checked(value, plan.check);
    }
  }

  #object(value: unknown, plan: ObjectPlan): unknown {
    if (!isPlainObject(value)) return this.#misfit(value);
    const object: Record<string, unknown> = {};
    for (const field of plan.fields) {
      const { key } = field;
      const item = field.free ? freeValue(value, key, this.path) : value[key];
      if (item === undefined || (item === null && field.optional && !field.nullable)) {
        if (!field.optional) this.fits = false;
        continue;
      }
      if (field.free) object[key] = this.#checked(item, field.check);
      else if (item === null && field.nullable) object[key] = null;
      else object[key] = this.#at(key, item, field.plan);
    }
    return object;
  }

  #at(key: string | number, value: unknown, plan: Plan): unknown {
    this.path.push(key);
    const read = this.walk(value, plan);
    this.path.pop();
    return read;
  }

  #checked(value: unknown, check: (value: unknown) => boolean): unknown {
    if (this.fits && !check(value)) this.fits = false;
    return value;
  }

  #misfit(value: unknown): unknown {
    this.fits = false;
    return value;
  }
}

/** `<key>Json` for each free value's key (a handful, fixed by the format): built once, not at every field read. */
const JSON_KEYS = new Map<string, string>();

/** A free value, from YAML under `key` or from JSON text under `<key>Json`; one or the other. */
function freeValue(object: Record<string, unknown>, key: string, path: (string | number)[]): unknown {
  let jsonKey = JSON_KEYS.get(key);
  if (jsonKey === undefined) {
    jsonKey = `${key}Json`;
    JSON_KEYS.set(key, jsonKey);
  }
  if (!Object.hasOwn(object, jsonKey)) return Object.hasOwn(object, key) ? object[key] : undefined;
  const at = [...path, jsonKey];
  if (Object.hasOwn(object, key)) {
    throw new FieldError(at, `${formatPath(path)} has both '${key}' and '${jsonKey}'; keep one of them.`);
  }
  const text = object[jsonKey];
  if (typeof text !== 'string') {
    throw new FieldError(at, `${formatPath(at)} should be JSON text (a string), but it was ${describeValue(text)}.`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new FieldError(at, `${formatPath(at)} should be JSON text, but it is not: ${(error as Error).message}.`);
  }
}
