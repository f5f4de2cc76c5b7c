import { describeValue } from '../../json/describeValue.js';
import { isPlainObject } from '../../json/jsonValue.js';
import { FieldError, formatPath } from '../field.js';
import { optionFor, type Plan } from './plan.js';

/**
 * A parsed document, walked by the format's plan, made into the value the format describes:
 * free values written as JSON text (`inputJson`) read back, an optional field written as null
 * taken as absent, and fields the format does not know left out (files from a newer minor
 * version still read). Whatever does not fit the plan is passed on as it is, for the check
 * that follows to report; only a free value's JSON text is refused here.
 */
export function normalize(value: unknown, plan: Plan): unknown {
  return walk(value, plan, []);
}

/** `path` is the way down to `value`, kept as one stack (pushed and popped) so a walk allocates no paths. */
function walk(value: unknown, plan: Plan, path: (string | number)[]): unknown {
  switch (plan.kind) {
    case 'object': {
      if (!isPlainObject(value)) return value;
      const object: Record<string, unknown> = {};
      for (const field of plan.fields) {
        const { key } = field;
        const item = field.free ? freeValue(value, key, path) : value[key];
        if (item === undefined || (item === null && field.optional)) continue;
        if (field.free) {
          object[key] = item;
          continue;
        }
        path.push(key);
        object[key] = walk(item, field.plan, path);
        path.pop();
      }
      return object;
    }
    case 'list':
      if (!Array.isArray(value)) return value;
      return value.map((item, i) => {
        path.push(i);
        const read = walk(item, plan.item, path);
        path.pop();
        return read;
      });
    case 'record':
      if (!isPlainObject(value)) return value;
      return Object.fromEntries(
        Object.entries(value).map(([name, item]) => {
          path.push(name);
          const read = walk(item, plan.value, path);
          path.pop();
          return [name, read];
        }),
      );
    case 'union': {
      const option = optionFor(plan, value);
      return option === undefined ? value : walk(value, option, path);
    }
    case 'leaf':
      return value;
  }
}

/** A free value, from YAML under `key` or from JSON text under `<key>Json`; one or the other. */
function freeValue(object: Record<string, unknown>, key: string, path: (string | number)[]): unknown {
  const jsonKey = `${key}Json`;
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
