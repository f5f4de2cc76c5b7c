import type { ArgumentPath } from '../../tools/binder/invalidArgument.js';
import type { PublishedSchema } from '../../tools/schema/publishedSchema.js';
import { fc } from '../fastCheck.js';
import { accepts, patternOf } from './accepts.js';
import { discriminatorOf } from './discriminatorOf.js';
import { resolved, resolveRef } from './resolveRef.js';
import { matching } from './stringOf.js';
import {
  alternativesOf,
  itemSchemaAt,
  maxItemsOf,
  propertiesOf,
  requiredOf,
  type SchemaNode,
  typesOf,
} from './schemaNode.js';

/** One step from a node to the value below it: a property, an item, or a union alternative (pinned). */
export type RouteStep =
  | { into: 'property'; key: string }
  | { into: 'item'; index: number }
  | { into: 'alternative'; index: number }
  /** A key no property declares, whose value `schema` (of patternProperties or additionalProperties) binds. */
  | { into: 'extra'; key: string; schema: SchemaNode };

/** A place in the input where a malformed case breaks the value, and how the schema got there. */
export interface BreakSite {
  route: RouteStep[];
  path: ArgumentPath;
  /** The node as declared at the place (refs not followed: a default beside a `$ref` counts). */
  node: SchemaNode;
  /** The node with refs followed. */
  target: SchemaNode;
  /** An alternative is a union's alternative pinned by the value, at the union's place: broken as a container only. */
  kind: 'root' | 'property' | 'item' | 'extra' | 'alternative';
  required: boolean;
  /**
   * Values the place must not be given when broken: at a discriminated union's discriminator, the
   * values that would pin another alternative (on an alternative's place: its discriminator's key).
   */
  avoid?: { key?: string; values: unknown[] };
}

/** How many times one `$ref` is followed along a route: a recursive schema is broken down to its second level. */
const REF_VISITS = 2;
/** At most this many sites per schema: a large OpenAPI schema is broken in its first ones. */
const MAX_SITES = 400;

/**
 * The places of a schema a malformed input can break, in declaration order: the root, every
 * property and item below it, through refs (a recursive definition down to its second level), and
 * into union alternatives only where the value pins the alternative, so the binder's refusal has a
 * predictable place: a discriminated union's alternatives, or the one alternative of a union that
 * allows objects (or arrays), as in the nullable idiom `anyOf: [T, {type: 'null'}]`.
 */
export function breakSites(root: PublishedSchema): BreakSite[] {
  const sites: BreakSite[] = [];
  const visit = (site: BreakSite, visits: Map<string, number>) => {
    if (sites.length >= MAX_SITES) return;
    sites.push(site);
    below(site, visits);
  };
  const below = (site: BreakSite, visits: Map<string, number>) => {
    const followed = follow(site.node, root, visits);
    if (followed === undefined) return;
    const { node, seen } = followed;
    const alternatives = alternativesOf(node);
    if (alternatives !== undefined) {
      const discriminator = discriminatorOf(node, root);
      for (const index of pinnedAlternatives(node, root)) {
        const alternative = alternatives[index]!;
        const route: RouteStep[] = [...site.route, { into: 'alternative', index }];
        const target = resolved(alternative, root);
        const avoid = discriminator && { key: discriminator.key, values: discriminator.values.flat() };
        visit({ ...site, route, node: alternative, target, kind: 'alternative', avoid }, seen);
      }
      return;
    }
    if (typesOf(node).includes('object')) {
      const required = new Set(requiredOf(node));
      for (const [key, property] of Object.entries(propertiesOf(node))) {
        if (resolved(property, root) === false) continue;
        const step: RouteStep = { into: 'property', key };
        const path = [...site.path, key];
        visit(
          {
            route: [...site.route, step],
            path,
            node: property,
            target: resolved(property, root),
            kind: 'property',
            required: required.has(key),
            avoid: site.kind === 'alternative' && site.avoid?.key === key ? { values: site.avoid.values } : undefined,
          },
          seen,
        );
      }
      for (const [key, schema] of extraKeys(node, root)) {
        const route: RouteStep[] = [...site.route, { into: 'extra', key, schema }];
        const target = resolved(schema, root);
        visit({ route, path: [...site.path, key], node: schema, target, kind: 'extra', required: false }, seen);
      }
    }
    if (typesOf(node).includes('array') && maxItemsOf(node) > 0) {
      const prefix = ((node.prefixItems as SchemaNode[] | undefined) ?? []).length;
      const indexes = [...Array(prefix).keys()];
      if (node.items !== false && maxItemsOf(node) > prefix) indexes.push(prefix);
      for (const index of indexes) {
        const item = itemSchemaAt(node, index);
        if (resolved(item, root) === false) continue;
        const step: RouteStep = { into: 'item', index };
        visit(
          {
            route: [...site.route, step],
            path: [...site.path, index],
            node: item,
            target: resolved(item, root),
            kind: 'item',
            required: true,
          },
          seen,
        );
      }
    }
  };
  visit({ route: [], path: [], node: root, target: root, kind: 'root', required: true }, new Map());
  return sites;
}

/**
 * One key per patternProperties pattern (a text it matches and no other pattern does) and one for an
 * additionalProperties schema, each with the schema that binds its value; none where that schema is
 * a boolean or no such key is found.
 */
function extraKeys(node: PublishedSchema, root: PublishedSchema): [string, SchemaNode][] {
  const declared = propertiesOf(node);
  const patterns = Object.entries((node.patternProperties as Record<string, SchemaNode> | undefined) ?? {});
  const names = node.propertyNames as SchemaNode | undefined;
  const free = (key: string, except?: string) =>
    key !== '__proto__' &&
    !Object.hasOwn(declared, key) &&
    (names === undefined || accepts(names, key, root)) &&
    patterns.every(([pattern]) => pattern === except || !patternOf(pattern).test(key));
  const keys: [string, SchemaNode][] = [];
  for (const [pattern, schema] of patterns) {
    if (typeof schema === 'boolean') continue;
    const key = fc.sample(matching(pattern), { numRuns: 20, seed: 7 }).find((text) => free(text, pattern));
    if (key !== undefined) keys.push([key, schema]);
  }
  const additional = node.additionalProperties;
  if (typeof additional === 'object' && additional !== null) {
    const key = ['extra_value', 'x_extra', 'k'].find((text) => free(text));
    if (key !== undefined) keys.push([key, additional as SchemaNode]);
  }
  return keys;
}

/** The node with refs followed, counting each ref; undefined once a ref was followed REF_VISITS times. */
function follow(
  node: SchemaNode,
  root: PublishedSchema,
  visits: Map<string, number>,
): { node: PublishedSchema; seen: Map<string, number> } | undefined {
  let current = node;
  let seen = visits;
  while (typeof current === 'object' && typeof current.$ref === 'string') {
    const ref = current.$ref;
    const count = seen.get(ref) ?? 0;
    if (count >= REF_VISITS) return undefined;
    seen = new Map(seen).set(ref, count + 1);
    current = resolveRef(root, ref);
  }
  return typeof current === 'boolean' ? undefined : { node: current, seen };
}

/** The alternatives a value pins: all of a discriminated union, or the one alternative allowing objects (arrays). */
function pinnedAlternatives(node: PublishedSchema, root: PublishedSchema): number[] {
  const alternatives = alternativesOf(node) ?? [];
  if (discriminatorOf(node, root) !== undefined) return alternatives.map((_, index) => index);
  const pinned: number[] = [];
  for (const type of ['object', 'array'] as const) {
    const allowing = alternatives
      .map((alternative, index) => ({ index, allows: allowsType(resolved(alternative, root), type, root) }))
      .filter((entry) => entry.allows);
    if (allowing.length === 1) pinned.push(allowing[0]!.index);
  }
  return pinned;
}

/** Whether a node lets some value of a JSON type through its type, const or enum (its other rules aside). */
export function allowsType(node: SchemaNode, type: string, root: PublishedSchema): boolean {
  if (typeof node === 'boolean') return node;
  const target = resolved(node, root);
  if (typeof target === 'boolean') return target;
  if ('const' in target) return accepts({ type }, target.const, root);
  if (Array.isArray(target.enum)) return target.enum.some((value) => accepts({ type }, value, root));
  const alternatives = alternativesOf(target);
  if (alternatives !== undefined) return alternatives.some((alternative) => allowsType(alternative, type, root));
  const types: readonly string[] = typesOf(target);
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}
