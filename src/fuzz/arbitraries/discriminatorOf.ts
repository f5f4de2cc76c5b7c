import type { PublishedSchema } from '../../tools/schema/publishedSchema.js';
import { discriminatorOf as bindersDiscriminator } from '../../tools/schema/schemaFacts.js';
import { alternativesOf } from './schemaNode.js';

/** A discriminated union: every alternative an object whose `key` property is a const or enum, the values disjoint. */
interface Discriminator {
  key: string;
  /** The values each alternative allows, in order. */
  values: unknown[][];
  /** Whether every alternative requires the key (always, for a union the binder reads as discriminated). */
  required: boolean;
}

/**
 * The discriminator of a union node, as the binder reads it (the binder refuses a bad discriminator at
 * its own path, so a break there lands where it was made), or undefined when it is not one.
 */
export function discriminatorOf(node: PublishedSchema, root: PublishedSchema): Discriminator | undefined {
  const alternatives = alternativesOf(node);
  const found = alternatives === undefined ? undefined : bindersDiscriminator(root, alternatives);
  if (alternatives === undefined || found === undefined) return undefined;
  const values: unknown[][] = alternatives.map(() => []);
  for (const [value, index] of found.values) values[index]!.push(value);
  return { key: found.property, values, required: true };
}
