import type fc from 'fast-check';
import type { ArgumentPath } from '../../tools/binder/invalidArgument.js';
import type { PublishedSchema } from '../../tools/schema/publishedSchema.js';
import { arrayOf } from './arrayOf.js';
import type { RouteStep } from './breakSites.js';
import type { Generation } from './generation.js';
import { objectOf } from './objectOf.js';
import { ownCopy, setOwn } from './ownCopy.js';
import { resolveRef } from './resolveRef.js';
import { alternativesOf, itemSchemaAt, propertiesOf, type SchemaNode } from './schemaNode.js';

/**
 * Valid inputs around one place: every value on the route is generated from its schema (a union
 * from the alternative the route pins), with the value at the end of the route taken from
 * `leaf` (or the property left out, for 'absent'). Undefined when the route cannot be filled.
 */
export function hostOf(
  route: RouteStep[],
  generation: Generation,
  leaf: fc.Arbitrary<unknown> | 'absent',
): fc.Arbitrary<unknown> | undefined {
  const around = (start: SchemaNode, step: number, refs: number): fc.Arbitrary<unknown> | undefined => {
    let node = start;
    let depth = refs;
    while (typeof node === 'object' && typeof node.$ref === 'string') {
      node = resolveRef(generation.root, node.$ref);
      depth++;
    }
    if (step === route.length) return leaf === 'absent' ? undefined : leaf;
    if (typeof node === 'boolean') return undefined;
    const next = route[step]!;
    const last = step + 1 === route.length;
    switch (next.into) {
      case 'alternative':
        return around(alternativesOf(node)![next.index]!, step + 1, depth);
      case 'property': {
        const values = last && leaf === 'absent' ? 'absent' : around(propertiesOf(node)[next.key]!, step + 1, depth);
        if (values === undefined) return undefined;
        return objectOf(node, generation, depth, { key: next.key, values });
      }
      case 'extra': {
        const values = around(next.schema, step + 1, depth);
        return values === undefined ? undefined : objectOf(node, generation, depth, { key: next.key, values });
      }
      case 'item': {
        const values = around(itemSchemaAt(node, next.index), step + 1, depth);
        return values === undefined ? undefined : arrayOf(node, generation, depth, { index: next.index, values });
      }
    }
  };
  return around(generation.root as PublishedSchema, 0, 0);
}

/**
 * A copy of `input` with the value at `path` replaced (containers along the path copied, the rest shared); `from`
 * is how many of the path's keys lead to `input`.
 */
export function replacedAt(
  input: unknown,
  path: ArgumentPath,
  replace: (value: unknown) => unknown,
  from = 0,
): unknown {
  if (from === path.length) return replace(input);
  const key = path[from]!;
  if (Array.isArray(input)) {
    const copy = [...input];
    copy[key as number] = replacedAt(input[key as number], path, replace, from + 1);
    return copy;
  }
  const copy = ownCopy(input as Record<string, unknown>);
  setOwn(copy, key as string, replacedAt((input as Record<string, unknown>)[key as string], path, replace, from + 1));
  return copy;
}
