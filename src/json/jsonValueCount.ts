/**
 * How many JSON values (objects, arrays, strings, numbers, booleans, nulls) `value` has written out as
 * JSON text: a part shared by several places counted at each, as the text repeats it. Stops at `cap + 1`,
 * so the count takes time in `cap` whatever the value (a small object graph can stand for an
 * exponentially larger text, and a cyclic one for an endless text); walked with a stack of its own.
 */
export function jsonValueCount(value: unknown, cap: number): number {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0 && count <= cap) {
    const next = pending.pop();
    count++;
    if (typeof next === 'object' && next !== null) for (const member of Object.values(next)) pending.push(member);
  }
  return Math.min(count, cap + 1);
}
