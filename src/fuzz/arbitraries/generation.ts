import type fc from 'fast-check';
import type { PublishedSchema } from '../../tools/schema/publishedSchema.js';
import type { InstanceCosts } from './instanceCost.js';
import type { SchemaNode } from './schemaNode.js';

/** Levels of `$ref` followed freely; below them values take the cheapest route, so recursion ends. */
export const FREE_REF_DEPTH = 3;

/** What building arbitraries for one published schema shares: its root, its costs, the arbitraries built. */
export interface Generation {
  readonly root: PublishedSchema;
  readonly costs: InstanceCosts;
  /**
   * Whether inputs use the binder's absence rules, which JSON Schema does not have: an optional
   * property whose schema refuses null is now and then sent as null (read as absent), and a required
   * property with a default now and then left out (it takes the default).
   */
  readonly absences: boolean;
  /** Arbitraries built so far, per node and depth; null where the node has no value to generate. */
  readonly built: Map<SchemaNode, (fc.Arbitrary<unknown> | null)[]>;
  /**
   * Values of a node at a depth (levels of `$ref` followed), built once; undefined when there are none. Arrays
   * and objects take their items' and properties' values from here (see arbitraryOf's `generationFor`).
   */
  readonly valuesOf: (node: SchemaNode, depth: number) => fc.Arbitrary<unknown> | undefined;
}

/** The cost of a node's smallest value (Infinity: it has none). */
export function costOf(generation: Generation, node: SchemaNode): number {
  return generation.costs.get(node) ?? Infinity;
}
