import { fc } from '../fastCheck.js';
import type { PublishedSchema } from '../../tools/schema/publishedSchema.js';
import { accepts, sameJson } from './accepts.js';
import { FREE_REF_DEPTH, type Generation } from './generation.js';
import { keepOnly } from './keepOnly.js';
import { itemSchemaAt, maxItemsOf, type SchemaNode } from './schemaNode.js';

/**
 * How many items beyond the least an array is given, at most: fewer at each level of `$ref`, so a
 * recursive tree stays small (three, two, one, then none).
 */
const SPARE_ITEMS = FREE_REF_DEPTH;

/** One item an array must hold, at an index: where a malformed input puts its broken value. */
interface PlacedItem {
  index: number;
  values: fc.Arbitrary<unknown>;
}

/**
 * Arrays an array node takes: `prefixItems` then `items` (absent: any JSON; false: none past the
 * tuple), min/maxItems, uniqueItems (JSON equality), contains with min/maxContains. With `placed`,
 * the array holds that item at that index and valid items around it.
 */
export function arrayOf(
  node: PublishedSchema,
  generation: Generation,
  depth: number,
  placed?: PlacedItem,
): fc.Arbitrary<unknown[]> | undefined {
  const prefix = ((node.prefixItems as SchemaNode[] | undefined) ?? []).length;
  const contained = node.contains === undefined ? 0 : ((node.minContains as number | undefined) ?? 1);
  const least = Math.max((node.minItems as number | undefined) ?? 0, contained, placed ? placed.index + 1 : 0);
  const most = Math.min(
    maxItemsOf(node),
    depth >= FREE_REF_DEPTH ? least : Math.max(least, prefix) + SPARE_ITEMS - depth,
  );
  if (least > maxItemsOf(node)) return undefined;
  const itemAt = (index: number) =>
    placed?.index === index ? placed.values : generation.valuesOf(itemSchemaAt(node, index), depth);
  // The indexes before the first that has no value to generate are all an array can use.
  let usable = 0;
  while (usable < most && itemAt(usable) !== undefined) usable++;
  if (usable < least) return undefined;
  let arrays: fc.Arbitrary<unknown[]>;
  if (prefix === 0 && placed === undefined) {
    const items = usable === 0 ? undefined : itemAt(0);
    if (items === undefined) arrays = fc.constant([]);
    else if (node.uniqueItems === true)
      arrays = fc.uniqueArray(items, { minLength: least, maxLength: usable, comparator: sameJson });
    else arrays = fc.array(items, { minLength: least, maxLength: usable });
    if (node.contains !== undefined && usable > 0)
      arrays = withContained(node, generation, depth, arrays, least, usable);
  } else {
    const slots = Array.from({ length: usable }, (_, i) => itemAt(i)!);
    arrays = fc
      .tuple(fc.tuple(...slots), fc.integer({ min: least, max: usable }))
      .map(([items, length]) => items.slice(0, length));
  }
  const unchecked = node.uniqueItems === true || node.contains !== undefined;
  const root = generation.root;
  if (placed !== undefined || !unchecked) return arrays;
  return keepOnly(arrays, (items) => accepts(node, items, root));
}

/** Arrays with between minContains and maxContains items that `contains` takes, put among the others. */
function withContained(
  node: PublishedSchema,
  generation: Generation,
  depth: number,
  arrays: fc.Arbitrary<unknown[]>,
  least: number,
  most: number,
): fc.Arbitrary<unknown[]> {
  const root = generation.root;
  const items = generation.valuesOf(itemSchemaAt(node, 0), depth);
  const contained = generation.valuesOf(node.contains as SchemaNode, depth);
  const fitting = contained && keepOnly(contained, (value) => accepts(itemSchemaAt(node, 0), value, root));
  if (fitting === undefined || items === undefined) return arrays;
  const lowest = (node.minContains as number | undefined) ?? 1;
  const highest = Math.min((node.maxContains as number | undefined) ?? lowest + 2, lowest + 2, most);
  if (lowest > highest) return arrays;
  const others =
    keepOnly(items, (value) => !accepts(node.contains as SchemaNode, value, root)) ?? fc.constant(undefined);
  const restMost = Math.max(0, most - highest);
  return fc
    .tuple(
      fc.array(fitting, { minLength: lowest, maxLength: highest }),
      fc.array(others, { minLength: Math.min(restMost, Math.max(0, least - lowest)), maxLength: restMost }),
      fc.array(fc.boolean(), { maxLength: most }),
    )
    .map(([wanted, rest, order]) => {
      const kept = rest.filter((value) => value !== undefined);
      const merged: unknown[] = [];
      while (wanted.length + kept.length > 0) {
        const takeWanted = kept.length === 0 || (wanted.length > 0 && (order.pop() ?? true));
        merged.push(takeWanted ? wanted.shift() : kept.shift());
      }
      return merged;
    });
}
