import type { PublishedSchema } from '../../tools/schema/prepareSchema.js';
import { resolved } from './resolveRef.js';
import { alternativesOf, propertiesOf, type SchemaNode, typesOf } from './schemaNode.js';
import { sameJson } from './accepts.js';

/** A discriminated union: every alternative an object whose `key` property is a const or enum, the values disjoint. */
export interface Discriminator {
  key: string;
  /** The values each alternative allows, in order. */
  values: unknown[][];
  /** Whether every alternative requires the key. */
  required: boolean;
}

/** The discriminator of a union node, or undefined when it is not a discriminated union. */
export function discriminatorOf(node: PublishedSchema, root: PublishedSchema): Discriminator | undefined {
  const alternatives = (alternativesOf(node) ?? []).map((alternative) => resolved(alternative, root));
  if (alternatives.length < 2) return undefined;
  if (alternatives.some((alternative) => typeof alternative === 'boolean' || !typesOf(alternative).includes('object')))
    return undefined;
  const objects = alternatives as PublishedSchema[];
  for (const key of Object.keys(propertiesOf(objects[0]!))) {
    const values = objects.map((alternative) => allowedValues(propertiesOf(alternative)[key], root));
    if (values.some((list) => list === undefined)) continue;
    const lists = values as unknown[][];
    const disjoint = lists.every((list, i) =>
      lists.slice(i + 1).every((other) => !list.some((value) => other.some((o) => sameJson(value, o)))),
    );
    if (!disjoint) continue;
    const required = objects.every((alternative) =>
      ((alternative.required as string[] | undefined) ?? []).includes(key),
    );
    return { key, values: lists, required };
  }
  return undefined;
}

function allowedValues(node: SchemaNode | undefined, root: PublishedSchema): unknown[] | undefined {
  if (node === undefined) return undefined;
  const target = resolved(node, root);
  if (typeof target === 'boolean') return undefined;
  if ('const' in target) return [target.const];
  return Array.isArray(target.enum) ? target.enum : undefined;
}
