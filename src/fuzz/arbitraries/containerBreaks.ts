import { fc } from '../fastCheck.js';
import type { PublishedSchema } from '../../tools/schema/publishedSchema.js';
import { accepts, patternOf } from './accepts.js';
import { anyJson, valuesOf } from './arbitraryOf.js';
import { arrayOf } from './arrayOf.js';
import type { BreakSite } from './breakSites.js';
import type { Generation } from './generation.js';
import { keepOnly } from './keepOnly.js';
import type { Break, Broken } from './malformation.js';
import { objectOf } from './objectOf.js';
import { ownCopy, setOwn } from './ownCopy.js';
import {
  alternativesOf,
  itemSchemaAt,
  maxItemsOf,
  propertiesOf,
  requiredOf,
  type SchemaNode,
  typesOf,
} from './schemaNode.js';

/** Keys tried as names no schema declares. */
const STRANGE_KEYS = ['extra', 'unexpected_field', 'Amount', '__proto__', 'constructor', 'x'];
/** Keys tried against propertyNames. */
const BAD_NAMES = ['', ' ', 'Bad Name', '😀', '0', '$x', 'x'.repeat(300)];
/** The depth (levels of `$ref`) a whole object or array is generated at, where the break site is a container. */
const DEPTH = 1;

/** Ways to break an object or array as a whole: its keys, its size, its items' uniqueness, `contains`. */
export function containerBreaks(site: BreakSite, generation: Generation): Break[] {
  const target = site.target;
  if (typeof target === 'boolean' || alternativesOf(target) !== undefined) return [];
  if ('const' in target || Array.isArray(target.enum)) return [];
  const types = typesOf(target);
  if (types.length === 7) return [];
  return [
    ...(types.includes('object') ? objectBreaks(target, generation) : []),
    ...(types.includes('array') ? arrayBreaks(target, generation) : []),
  ];
}

function objectBreaks(node: PublishedSchema, generation: Generation): Break[] {
  const root = generation.root;
  const objects = objectOf(node, generation, DEPTH);
  if (objects === undefined) return [];
  const declared = propertiesOf(node);
  const patterns = Object.keys((node.patternProperties as Record<string, SchemaNode> | undefined) ?? {});
  const undeclared = (key: string) => !Object.hasOwn(declared, key) && !patterns.some((p) => patternOf(p).test(key));
  const names = node.propertyNames as SchemaNode | undefined;
  const breaks: Break[] = [];
  const withKey = (object: unknown, key: string, value: unknown): Broken => {
    const copy = ownCopy(object as Record<string, unknown>);
    setOwn(copy, key, value);
    return { value: copy, at: [key] };
  };
  if (node.additionalProperties === false) {
    const keys = STRANGE_KEYS.filter(undeclared);
    if (keys.length > 0)
      breaks.push({
        malformation: 'extra_property',
        values: fc.tuple(objects, fc.constantFrom(...keys), anyJson).map(([o, key, value]) => withKey(o, key, value)),
      });
  }
  if (names !== undefined) {
    const keys = BAD_NAMES.filter((key) => !Object.hasOwn(declared, key) && !accepts(names, key, root));
    if (keys.length > 0)
      breaks.push({
        malformation: 'bad_property_name',
        values: fc.tuple(objects, fc.constantFrom(...keys), anyJson).map(([o, key, value]) => withKey(o, key, value)),
      });
  }
  const additional = valuesOf((node.additionalProperties as SchemaNode | undefined) ?? true, generation, DEPTH);
  if (typeof node.maxProperties === 'number' && additional !== undefined) {
    const max = node.maxProperties;
    const fresh = Array.from({ length: max + 1 }, (_, i) => `k${i}`).filter(
      (key) => undeclared(key) && (names === undefined || accepts(names, key, root)),
    );
    const over = keepOnly(
      fc.tuple(objects, fc.array(additional, { minLength: max + 1, maxLength: max + 1 })).map(([o, values]) => {
        const copy = { ...o };
        for (const [i, key] of fresh.entries()) if (Object.keys(copy).length <= max) copy[key] = values[i];
        return copy;
      }),
      (o) => Object.keys(o).length > max,
    );
    if (over !== undefined)
      breaks.push({ malformation: 'too_many_properties', values: over.map((value) => ({ value, at: [] })) });
  }
  breaks.push(...dependentBreaks(node, generation));
  if (typeof node.minProperties === 'number' && requiredOf(node).length < node.minProperties) {
    const min = node.minProperties;
    const required = new Set(requiredOf(node));
    const under = objects.map((o) => Object.fromEntries(Object.entries(o).filter(([key]) => required.has(key))));
    const few = keepOnly(under, (o) => Object.keys(o).length < min);
    if (few !== undefined)
      breaks.push({ malformation: 'too_few_properties', values: few.map((value) => ({ value, at: [] })) });
  }
  return breaks;
}

/** For dependentRequired: the trigger given, one property it needs left out (refused at that property). */
function dependentBreaks(node: PublishedSchema, generation: Generation): Break[] {
  const breaks: Break[] = [];
  const dependencies = (node.dependentRequired as Record<string, string[]> | undefined) ?? {};
  for (const [trigger, needed] of Object.entries(dependencies)) {
    const property = propertiesOf(node)[trigger];
    const values = property === undefined ? anyJson : valuesOf(property, generation, DEPTH);
    const placed = values && { key: trigger, values };
    const objects = placed && objectOf(node, generation, DEPTH, placed);
    if (objects === undefined || needed.length === 0) continue;
    breaks.push({
      malformation: 'missing_required',
      values: fc.tuple(objects, fc.constantFrom(...needed)).map(([object, left]): Broken => {
        const { [left]: _, ...rest } = object;
        return { value: rest, at: [left] };
      }),
    });
  }
  return breaks;
}

function arrayBreaks(node: PublishedSchema, generation: Generation): Break[] {
  const root = generation.root;
  const breaks: Break[] = [];
  const prefix = ((node.prefixItems as SchemaNode[] | undefined) ?? []).length;
  const max = maxItemsOf(node);
  if (Number.isFinite(max)) {
    const slots = Array.from(
      { length: max + 1 },
      (_, i) => valuesOf(itemSchemaAt(node, i), generation, DEPTH) ?? anyJson,
    );
    // Refused at the array as a whole, whether maxItems or a closed tuple (`items: false`) ends it.
    breaks.push({
      malformation: 'too_long',
      values: fc.tuple(...slots).map((items): Broken => ({ value: items, at: [] })),
    });
  }
  const min = (node.minItems as number | undefined) ?? 0;
  if (min > 0) {
    const arrays = arrayOf({ ...node, minItems: 0, maxItems: min - 1 }, generation, DEPTH);
    if (arrays !== undefined)
      breaks.push({ malformation: 'too_short', values: arrays.map((value) => ({ value, at: [] })) });
  }
  const arrays = arrayOf(node, generation, DEPTH);
  if (node.uniqueItems === true && arrays !== undefined) {
    const doubled = keepOnly(
      arrays.map((items): Broken | undefined => {
        if (items.length === 0) return undefined;
        const copy = items.length < max ? [...items, undefined] : [...items];
        const index = copy.length - 1;
        if (index === 0) return undefined;
        copy[index] = structuredClone(items[0]);
        // uniqueItems is a rule of the array as a whole: the refusal names the array.
        return accepts(itemSchemaAt(node, index), copy[index], root) ? { value: copy, at: [] } : undefined;
      }),
      (broken) => broken !== undefined,
    );
    if (doubled !== undefined) breaks.push({ malformation: 'duplicate_item', values: doubled as fc.Arbitrary<Broken> });
  }
  const contains = node.contains as SchemaNode | undefined;
  if (contains !== undefined && ((node.minContains as number | undefined) ?? 1) > 0 && prefix === 0) {
    const items = valuesOf(itemSchemaAt(node, 0), generation, DEPTH);
    const others = items && keepOnly(items, (value) => !accepts(contains, value, root));
    if (others !== undefined) {
      const most = Math.min(max, min + 2);
      const lists =
        node.uniqueItems === true
          ? fc.uniqueArray(others, { minLength: min, maxLength: most, comparator: 'SameValueZero' })
          : fc.array(others, { minLength: min, maxLength: most });
      const unmet = keepOnly(lists, (list) =>
        accepts({ ...node, contains: undefined, minContains: undefined }, list, root),
      );
      if (unmet !== undefined)
        breaks.push({ malformation: 'contains_unmet', values: unmet.map((value) => ({ value, at: [] })) });
    }
  }
  return breaks;
}
