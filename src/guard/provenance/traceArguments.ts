import { isPlainObject } from '../../json/jsonValue.js';
import { valuesAt } from '../../json/fieldPath.js';
import type { Provenance } from './provenance.js';
import { needleOf } from './valueMatch.js';

/** A sensitive argument value no trusted text holds. */
export interface Untraced {
  /** Where in the input: a concrete path such as `recipients[1]` or `to.iban`. */
  argument: string;
  value: string | number;
  /** The tools whose outside-authored text holds the value, each once, in order; [] = nowhere. */
  foundIn: string[];
}

/**
 * The first value at a `sensitive` path of `input` that cannot be traced to trusted text, or
 * undefined when every one can (see `valueMatch.ts` for what "occurs" means). The values at each
 * path, in the order given: a string or a number is traced itself; an object or array, each string
 * and number inside it (not its objects' keys: declare a path to the values); a boolean or null has
 * nothing to trace. A path that reaches nothing (an argument left out) has nothing to trace either:
 * whether it is required is the schema's concern.
 */
export function untracedArgument(
  input: unknown,
  sensitive: readonly string[],
  provenance: Provenance,
): Untraced | undefined {
  for (const path of sensitive) {
    for (const { at, value } of valuesAt(input, path)) {
      for (const leaf of tracedPieces(at, value)) {
        const needle = needleOf(leaf.value);
        if (!provenance.index.traced(needle)) return { ...leaf, foundIn: provenance.index.foundIn(needle) };
      }
    }
  }
  return undefined;
}

/**
 * The strings and numbers a value holds, with where, in document order (object keys are names, not
 * values). `at` is where a path reached, never empty (a path has a step), so a member is `at.key`.
 * The pending members go on a stack in reverse, so that the first is taken first.
 */
function* tracedPieces(at: string, value: unknown): Generator<{ argument: string; value: string | number }> {
  const pending: { at: string; value: unknown }[] = [{ at, value }];
  while (pending.length > 0) {
    const here = pending.pop()!;
    if (typeof here.value === 'string' || typeof here.value === 'number') {
      yield { argument: here.at, value: here.value };
    } else if (Array.isArray(here.value)) {
      const items = here.value.map((item, i) => ({ at: `${here.at}[${i}]`, value: item }));
      for (const item of items.toReversed()) pending.push(item);
    } else if (isPlainObject(here.value)) {
      const members = Object.entries(here.value).map(([key, item]) => ({ at: `${here.at}.${key}`, value: item }));
      for (const member of members.toReversed()) pending.push(member);
    }
  }
}
