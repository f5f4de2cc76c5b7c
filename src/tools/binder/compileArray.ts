import { canonicalJson } from '../../json/canonicalJson.js';
import { describeValue } from '../../json/describeValue.js';
import type { PublishedSchema } from '../schema/publishedSchema.js';
import { typesOf } from '../schema/schemaFacts.js';
import { type Emitter, type Site, statements } from './emitter.js';
import { describeExpectation } from './expectation.js';

/**
 * Code for an array: the count, then each item bound through its schema (`prefixItems` by
 * position, `items` after them; `items: false` allows no more), then `uniqueItems` and `contains`
 * over the items as sent.
 */
export function emitArray(gen: Emitter, node: PublishedSchema, site: Site, expected: string): string {
  const { input, path, out, at, depth } = site;
  const tuple = Array.isArray(node.prefixItems) ? (node.prefixItems as unknown[]) : [];
  const items = node.items;
  const count = (_v: unknown, n: unknown) => `it had ${String(n)} item${n === 1 ? '' : 's'}`;
  const lines = [`if (!Array.isArray(${input})) ${gen.refuse(site, 'invalid_type', expected)}`, gen.container(site)];
  const max =
    items === false ? Math.min(tuple.length, (node.maxItems as number | undefined) ?? Infinity) : node.maxItems;
  if (typeof node.minItems === 'number') {
    const min = gen.literal(node.minItems);
    lines.push(`if (${input}.length < ${min}) ${gen.refuse(site, 'too_short', expected, count, `${input}.length`)}`);
  }
  // With `items: false`, the tuple's length bounds the count: a number, finite.
  if (typeof max === 'number')
    lines.push(
      `if (${input}.length > ${gen.literal(max)}) ${gen.refuse(site, 'too_long', expected, count, `${input}.length`)}`,
    );
  // Items each bound as sent need no copy of their own: once checked, the array is copied whole, in one step.
  const asSent = [...tuple, items].every(bindsAsSent);
  const all = gen.var('a');
  const store = (index: string, bound: string) => (asSent ? '' : `${all}[${index}] = ${bound};`);
  // Stryker disable next-line ConditionalExpression: equivalent, as an array made and never used changes nothing
  if (!asSent) lines.push(`const ${all} = new Array(${input}.length);`);
  tuple.forEach((schema, position) => {
    const bound = gen.var('b');
    const item: Site = {
      input: `${input}[${position}]`,
      path: [...path, String(position)],
      out: bound,
      at: `${at}.prefixItems.${position}`,
      root: false,
      depth: depth + 1,
    };
    lines.push(
      `if (${input}.length > ${position}) { let ${bound};`,
      gen.node(schema, item),
      `${store(String(position), bound)} }`,
    );
  });
  const index = gen.var('i');
  const value = gen.var('e');
  const bound = gen.var('b');
  const item: Site = {
    input: value,
    path: [...path, index],
    out: bound,
    at: `${at}.items`,
    root: false,
    depth: depth + 1,
  };
  lines.push(
    `for (let ${index} = ${tuple.length}; ${index} < ${input}.length; ${index}++) {`,
    `const ${value} = ${input}[${index}]; let ${bound};`,
    // With `items: false` no item gets here: the count is refused first, past the tuple.
    gen.node(items, item),
    store(index, bound),
    '}',
  );
  if (node.uniqueItems === true) {
    const duplicate = gen.refuser('duplicate_item', expected, (v, i) => {
      const items = v as unknown[];
      return `item ${String(i)} (${describeValue(items[i as number])}) is the same as an earlier one`;
    });
    const repeated = gen.var('d');
    lines.push(
      `const ${repeated} = ${gen.ref(firstDuplicate)}(${input});`,
      `if (${repeated} !== -1) return ${duplicate}(${input}, [${path}], ${repeated});`,
    );
  }
  if ('contains' in node) lines.push(...contains(gen, node, site));
  // A spread (the array iterator) reads every index as the loop does, a hole as undefined, and makes a plain array.
  lines.push(`${out} = ${asSent ? `[...${input}]` : all};`);
  return statements(lines);
}

function contains(gen: Emitter, node: PublishedSchema, site: Site): string[] {
  const fn = gen.matcher(node.contains, `${site.at}.contains`);
  const min = typeof node.minContains === 'number' ? node.minContains : 1;
  const max = node.maxContains as number | undefined;
  const kind = describeExpectation(node.contains, gen.root);
  const matches = gen.var('m');
  const lines = [
    `let ${matches} = 0; for (const item of ${site.input}) if (!(${fn}(item) instanceof R)) ${matches}++;`,
  ];
  const had = (_v: unknown, n: unknown) => `it had ${String(n)}`;
  const atLeast = `an array with at least ${itemsThat(min)}`;
  const atMost = `an array with at most ${itemsThat(max ?? 0)}`;
  // A minimum of 0 asks nothing, and its check never refuses.
  lines.push(
    `if (${matches} < ${gen.literal(min)}) ${gen.refuse(site, 'missing_item', `${atLeast} ${kind}`, had, matches)}`,
  );
  if (max !== undefined)
    lines.push(
      `if (${matches} > ${gen.literal(max)}) ${gen.refuse(site, 'too_long', `${atMost} ${kind}`, had, matches)}`,
    );
  return lines;
}

// Stryker disable next-line StringLiteral,ArrayDeclaration: equivalent, a type left out only has items copied singly
const SCALARS: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/**
 * Whether every value the schema accepts as an item is bound as sent, so the bound array can be the sent one
 * copied: a node of scalar types only, a value kept as sent (`true`, no schema), or none (`false`). Anything
 * else may bind an item to a value of its own (an object with its defaults, an array copied).
 */
function bindsAsSent(schema: unknown): boolean {
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: equivalent, copying each item binds the same
  if (typeof schema !== 'object') return true;
  // A `$ref` or a union has no type of its own here (the normaliser moves one into the target or the alternatives).
  return typesOf(schema as PublishedSchema)?.every((type) => SCALARS.has(type)) === true;
}

/** `1 item that is`, `2 items that are`. */
function itemsThat(n: number): string {
  return n === 1 ? '1 item that is' : `${n} items that are`;
}

/** The index of the first item equal (as JSON: 1 and 1.0 alike, keys in any order) to an earlier one, or -1. */
function firstDuplicate(items: unknown[]): number {
  const scalars = new Set<unknown>();
  const structured = new Set<string>();
  for (const [i, item] of items.entries()) {
    // null goes with the objects, as `null`: no object or array writes so.
    const seen = typeof item === 'object' ? structured : scalars;
    const key = seen === structured ? canonicalJson(item) : item;
    if (seen.has(key as never)) return i;
    seen.add(key as never);
  }
  return -1;
}
