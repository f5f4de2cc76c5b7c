import { expect } from 'vitest';
import { readPlainYaml } from '../../src/trajectory/fastYaml.js';
import { readWrittenYaml } from '../../src/trajectory/writtenYaml.js';

/** Every object's keys, in order, depth first: values of one shape list them alike only in the same order. */
function keyOrder(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) keyOrder(item, into);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      into.push(key);
      keyOrder(item, into);
    }
    into.push('}');
  }
  return into;
}

/**
 * The writer's reader on a text: it declines (undefined), or reads exactly what the reference
 * reader (js-yaml, itself held to the `yaml` library) reads: the same value, -0 apart from 0, keys
 * in the same order. Returns whether it read the text.
 */
export function expectWrittenAgrees(text: string): boolean {
  const written = readWrittenYaml(text);
  if (written === undefined) return false;
  const reference = readPlainYaml(text);
  expect(reference !== undefined && 'value' in reference, 'the reference reader reads it too').toBe(true);
  const { value } = reference as { value: unknown };
  expect(written.value).toStrictEqual(value);
  expect(keyOrder(written.value)).toEqual(keyOrder(value));
  return true;
}
