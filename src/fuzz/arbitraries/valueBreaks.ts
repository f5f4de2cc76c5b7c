import { fc } from '../fastCheck.js';
import type { PublishedSchema } from '../../tools/schema/publishedSchema.js';
import { jsonTypeOf } from '../../json/jsonValue.js';
import { accepts, patternOf, sameJson } from './accepts.js';
import { valuesOf } from './arbitraryOf.js';
import { allowsType, type BreakSite } from './breakSites.js';
import { discriminatorOf } from './discriminatorOf.js';
import { keepOnly } from './keepOnly.js';
import type { Generation } from './generation.js';
import type { Break, Broken, Malformation } from './malformation.js';
import { alternativesOf, type SchemaNode, typesOf } from './schemaNode.js';
import { AWKWARD_TEXT } from './stringOf.js';
import { FORMAT_CHECKS } from '../../tools/schema/formats.js';

/** Values of every JSON type, tried as wrong values. */
const PROBES: unknown[] = ['text', '3', 7, 42.5, true, ['a'], { a: 1 }];

/** Ways to break the value at a property or item: its type, its presence, its bounds, its union. */
export function valueBreaks(site: BreakSite, generation: Generation): Break[] {
  const root = generation.root;
  const target = site.target;
  const breaks: Break[] = [];
  // A discriminator given another alternative's value pins that alternative: the break would land elsewhere.
  const avoided = (value: unknown) => site.avoid?.values.some((other) => sameJson(other, value)) ?? false;
  const at = (malformation: Malformation, values: fc.Arbitrary<unknown>) => breaks.push(broken(malformation, values));
  const wrong = PROBES.filter(
    (value) => !accepts(target, value, root) && refusedHere(target, value, root) && !avoided(value),
  );
  // Null is a value for an item or an extra key (absence is a property's alone).
  if ((site.kind === 'item' || site.kind === 'extra') && !accepts(target, null, root)) wrong.push(null);
  if (wrong.length > 0) at('wrong_type', fc.constantFrom(...wrong));
  const hasDefault = typeof site.node === 'object' && 'default' in site.node;
  if (site.kind === 'property' && site.required && !hasDefault) {
    breaks.push({ malformation: 'missing_required', values: 'absent' });
    if (!accepts(target, null, root)) at('explicit_null', fc.constant(null));
  }
  if (!allowsType(target, 'array', root)) at('deep_nesting', fc.integer({ min: 20, max: 200 }).map(nested));
  if (typeof target === 'boolean') return breaks;
  breaks.push(...conditionBreaks(target, generation));
  const alternatives = alternativesOf(target);
  if (alternatives !== undefined) return [...breaks, ...unionBreaks(target, generation)];
  if ('const' in target || Array.isArray(target.enum)) return [...breaks, ...enumBreaks(target, root, avoided)];
  const types = typesOf(target);
  if (types.length === 7) return breaks;
  if (types.includes('integer') || types.includes('number')) breaks.push(...numberBreaks(target, root));
  if (types.includes('string')) breaks.push(...stringBreaks(target, root));
  return breaks;
}

/**
 * Whether a value the node refuses is refused at the node's own place: a value of a JSON type no
 * part of the node allows, or a value with no inside (a scalar), which no deeper place can hold.
 */
function refusedHere(node: SchemaNode, value: unknown, root: PublishedSchema): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return !allowsType(node, Array.isArray(value) ? 'array' : 'object', root);
}

function enumBreaks(node: PublishedSchema, root: PublishedSchema, avoided: (value: unknown) => boolean): Break[] {
  const strings = (Array.isArray(node.enum) ? node.enum : [node.const]).filter(
    (v): v is string => typeof v === 'string',
  );
  const misses = strings
    .flatMap((v) => [v.toUpperCase(), v.toLowerCase(), `${v}s`, v.slice(0, -1), ` ${v}`])
    .filter((v) => !accepts(node, v, root) && !avoided(v));
  return misses.length === 0 ? [] : [broken('enum_near_miss', fc.constantFrom(...misses))];
}

function numberBreaks(node: PublishedSchema, root: PublishedSchema): Break[] {
  const integer = !typesOf(node).includes('number');
  const outside = [
    typeof node.maximum === 'number' ? node.maximum + 1 : undefined,
    typeof node.minimum === 'number' ? node.minimum - 1 : undefined,
    typeof node.exclusiveMaximum === 'number' ? node.exclusiveMaximum : undefined,
    typeof node.exclusiveMinimum === 'number' ? node.exclusiveMinimum : undefined,
  ].filter((n): n is number => n !== undefined && !accepts(node, n, root));
  const breaks: Break[] = [];
  if (outside.length > 0) breaks.push(broken('out_of_range', fc.constantFrom(...outside)));
  // Beyond the safe integers, beyond a declared bound, or not finite at all: refused, never saturated.
  const huge = [Infinity, -Infinity, Number.NaN, 2 ** 60, -(2 ** 60), Number.MAX_VALUE, -Number.MAX_VALUE];
  const refused = huge.filter((n) => !accepts(node, n, root));
  if (refused.length > 0) breaks.push(broken('huge_magnitude', fc.constantFrom(...refused)));
  if (integer) breaks.push(broken('not_an_integer', fc.constantFrom(0.5, 1.25, -2.75)));
  const divisor = node.multipleOf;
  if (typeof divisor === 'number') {
    // Just past a multiple inside the bounds: only multipleOf refuses it.
    const from = [node.minimum, node.exclusiveMinimum].find((n): n is number => typeof n === 'number') ?? 0;
    const multiple = Math.ceil(from / divisor) * divisor;
    const bounded = { ...node, multipleOf: undefined };
    const misses = [divisor / 2, divisor / 3, 1, -1, 2 * divisor + 1]
      .flatMap((step) => [multiple + step, multiple + divisor + step])
      .filter((n) => accepts(bounded, n, root) && !accepts(node, n, root));
    if (misses.length > 0) breaks.push(broken('not_a_multiple', fc.constantFrom(...misses)));
  }
  return breaks;
}

function stringBreaks(node: PublishedSchema, root: PublishedSchema): Break[] {
  const breaks: Break[] = [];
  if (typeof node.maxLength === 'number') {
    const units = ['x', ...AWKWARD_TEXT.filter((t) => t !== '\u0000')].map((unit) =>
      unit.repeat((node.maxLength as number) + 1),
    );
    const refused = units.filter((text) => !accepts({ type: 'string', maxLength: node.maxLength }, text, root));
    if (refused.length > 0) breaks.push(broken('too_long', fc.constantFrom(...refused)));
  }
  if (typeof node.minLength === 'number' && node.minLength > 0)
    breaks.push(broken('too_short', fc.constant('x'.repeat(node.minLength - 1))));
  if (typeof node.pattern === 'string') {
    const pattern = patternOf(node.pattern);
    const lengthOnly = { minLength: node.minLength, maxLength: node.maxLength };
    const misses = ['', ' ', 'x', '\u202Ex', 'ZZZZ-9999-zzzz', '😀'].filter(
      (s) => !pattern.test(s) && accepts(lengthOnly, s, root),
    );
    if (misses.length > 0) breaks.push(broken('pattern_miss', fc.constantFrom(...misses)));
  }
  const check = typeof node.format === 'string' ? FORMAT_CHECKS.get(node.format) : undefined;
  if (check !== undefined) {
    const others = { minLength: node.minLength, maxLength: node.maxLength, pattern: node.pattern };
    const misses = ['not a value', 'x', '0', '::::', '2024-13-45', '@'].filter(
      (text) => !check(text) && accepts(others, text, root),
    );
    if (misses.length > 0) breaks.push(broken('format_miss', fc.constantFrom(...misses)));
  }
  return breaks;
}

/** A value none of a union's alternatives takes; for a discriminated union, a discriminator no alternative has. */
function unionBreaks(node: PublishedSchema, generation: Generation): Break[] {
  const root = generation.root;
  const probes: unknown[] = ['', 'text', -1, 0, 1.5, 1e300, true, false, [], [null], {}, { '?': 1 }];
  const none = probes.filter((value) => !accepts(node, value, root) && allowsType(node, typeOfProbe(value), root));
  const breaks: Break[] = [];
  if (none.length > 0) breaks.push(broken('no_alternative', fc.constantFrom(...none)));
  const discriminator = discriminatorOf(node, root);
  if (discriminator === undefined) return breaks;
  const known = discriminator.values.flat();
  const unknown = ['unknown', '', 'other', 'x-unknown', 'NONE'].filter((value) => !known.includes(value));
  const alternatives = alternativesOf(node)!;
  const objects = alternatives
    .map((alternative) => valuesOf(alternative, generation, 1))
    .filter((values) => values !== undefined);
  if (objects.length === 0) return breaks;
  const key = discriminator.key;
  breaks.push({
    malformation: 'unknown_discriminator',
    values: fc.tuple(fc.oneof(...objects), fc.constantFrom(...unknown)).map(([object, value]) => ({
      value: { ...(object as Record<string, unknown>), [key]: value },
      at: [key],
    })),
  });
  if (discriminator.required) {
    breaks.push({
      malformation: 'missing_required',
      values: fc.oneof(...objects).map((object) => {
        const { [key]: _, ...rest } = object as Record<string, unknown>;
        return { value: rest, at: [key] };
      }),
    });
  }
  return breaks;
}

/**
 * Values every other rule of the node takes that `not` excludes (refused at the place), or that
 * `if`/`then`/`else` refuses (refused where the branch's rule fails, maybe inside the place).
 */
function conditionBreaks(node: PublishedSchema, generation: Generation): Break[] {
  const root = generation.root;
  const breaks: Break[] = [];
  const without = (keys: string[]) => Object.fromEntries(Object.entries(node).filter(([key]) => !keys.includes(key)));
  const refusedBy = (malformation: Malformation, rest: PublishedSchema) => {
    const values = valuesOf(rest, generation, 1);
    const refused = values && keepOnly(values, (value) => !accepts(node, value, root));
    if (refused !== undefined) breaks.push(broken(malformation, refused));
  };
  if (node.not !== undefined) {
    const excluded = valuesOf(node.not as SchemaNode, generation, 1);
    const rest = without(['not']);
    const kept = excluded && keepOnly(excluded, (value) => accepts(rest, value, root));
    if (kept !== undefined) breaks.push(broken('excluded_by_not', kept));
  }
  if (node.if !== undefined) refusedBy('condition_unmet', without(['if', 'then', 'else']));
  return breaks;
}

function typeOfProbe(value: unknown): string {
  return typeof value === 'number' && Number.isInteger(value) ? 'integer' : jsonTypeOf(value);
}

function broken(malformation: Malformation, values: fc.Arbitrary<unknown>): Break {
  return { malformation, values: values.map((value): Broken => ({ value, at: [] })) };
}

function nested(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}
