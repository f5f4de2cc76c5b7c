import { fc } from '../fastCheck.js';
import { isMultipleOf } from '../../tools/binder/isMultipleOf.js';
import type { PublishedSchema } from '../../tools/schema/publishedSchema.js';

/** Whole numbers a node takes (bounds, exclusive bounds, multipleOf); undefined when its bounds leave none. */
export function integerOf(node: PublishedSchema): fc.Arbitrary<number> | undefined {
  const { min, max } = bounds(node, true);
  const lowest = Math.ceil(min);
  const highest = Math.floor(max);
  if (lowest > highest) return undefined;
  const divisor = node.multipleOf;
  if (typeof divisor === 'number' && Number.isInteger(divisor)) {
    const from = Math.ceil(lowest / divisor);
    const to = Math.floor(highest / divisor);
    if (from > to) return undefined;
    return fc.integer({ min: from, max: to }).map((k) => k * divisor + 0);
  }
  return fc.integer({ min: lowest, max: highest }).filter((n) => multipleOk(node, n));
}

/** Numbers a node takes; undefined when its bounds leave none. */
export function numberOf(node: PublishedSchema): fc.Arbitrary<number> | undefined {
  const { min, max } = bounds(node, false);
  if (min > max) return undefined;
  const divisor = node.multipleOf;
  if (typeof divisor === 'number') {
    // Multiples as decimals (3 × 0.01 is 0.03, not 0.030000000000000002), the way the binder reads them.
    const lowest = Math.max(Math.ceil(min / divisor), -Number.MAX_SAFE_INTEGER);
    const highest = Math.min(Math.floor(max / divisor), Number.MAX_SAFE_INTEGER);
    if (lowest > highest) return undefined;
    return fc
      .integer({ min: lowest, max: highest })
      .map((k) => Number((k * divisor).toPrecision(15)) + 0)
      .filter((n) => n >= min && n <= max && multipleOk(node, n));
  }
  return fc
    .double({ min, max, noNaN: true, noDefaultInfinity: true, minExcluded: false, maxExcluded: false })
    .filter((n) => Number.isFinite(n))
    .map((n) => n + 0);
}

function bounds(node: PublishedSchema, integer: boolean): { min: number; max: number } {
  const limit = integer ? Number.MAX_SAFE_INTEGER : Number.MAX_VALUE;
  let min = typeof node.minimum === 'number' ? node.minimum : -limit;
  let max = typeof node.maximum === 'number' ? node.maximum : limit;
  if (typeof node.exclusiveMinimum === 'number')
    min = Math.max(min, integer ? Math.floor(node.exclusiveMinimum) + 1 : nextUp(node.exclusiveMinimum));
  if (typeof node.exclusiveMaximum === 'number')
    max = Math.min(max, integer ? Math.ceil(node.exclusiveMaximum) - 1 : nextDown(node.exclusiveMaximum));
  return { min: Math.max(min, -limit), max: Math.min(max, limit) };
}

function nextUp(n: number): number {
  return n === 0 ? Number.MIN_VALUE : n + Math.abs(n) * Number.EPSILON;
}

function nextDown(n: number): number {
  return n === 0 ? -Number.MIN_VALUE : n - Math.abs(n) * Number.EPSILON;
}

function multipleOk(node: PublishedSchema, n: number): boolean {
  return typeof node.multipleOf !== 'number' || isMultipleOf(n, node.multipleOf);
}
