import { expect } from 'vitest';
import { readYamlCarefully } from '../../src/trajectory/carefulYaml.js';
import { TrajectoryFormatError } from '../../src/trajectory/errors.js';
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
 * reader (the careful one, the `yaml` library) reads: the same value, -0 apart from 0, keys in the
 * same order. Returns whether it read the text.
 */
export function expectWrittenAgrees(text: string): boolean {
  const written = readWrittenYaml(text);
  if (written === undefined) return false;
  let reference: unknown;
  try {
    reference = readYamlCarefully(text, 'agreement.yaml');
  } catch (error) {
    if (!(error instanceof TrajectoryFormatError)) throw error;
    expect.fail(`the reference reader refuses a text the writer's reader read: ${error.message}`);
  }
  expect(written.value).toStrictEqual(reference);
  expect(keyOrder(written.value)).toEqual(keyOrder(reference));
  return true;
}
