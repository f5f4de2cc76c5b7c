import type { AjvOracle } from './ajvOracle.js';

type Pointer = (string | number)[];

/** The binder's rules for absent properties that JSON Schema does not have (SCHEMA_SPEC.md). */
export type AbsenceRule =
  /** A null where the property's schema does not accept null is the property left out (difference 1). */
  | 'null-as-absent'
  /** A required property left out takes its default, if it has one, instead of being refused. */
  | 'default-for-absent';

/**
 * The ways the rules are tried, fewest rules first; `ambiguousAsAbsent` decides a null that union
 * alternatives disagree on.
 */
export const ABSENCE_VARIANTS: readonly { rules: readonly AbsenceRule[]; ambiguousAsAbsent: boolean }[] = [
  { rules: ['null-as-absent'], ambiguousAsAbsent: true },
  { rules: ['null-as-absent'], ambiguousAsAbsent: false },
  { rules: ['default-for-absent'], ambiguousAsAbsent: false },
  { rules: ['null-as-absent', 'default-for-absent'], ambiguousAsAbsent: true },
  { rules: ['null-as-absent', 'default-for-absent'], ambiguousAsAbsent: false },
];

/**
 * The input as the binder's absence rules read it, written independently of the binder.
 * null-as-absent: a `null` at an object property that some applicable schema declares in
 * `properties` becomes its `default` when that schema has one, else is removed, when the declared
 * schema does not accept null (asked of ajv); a null at a property whose schema accepts null is
 * replaced by the default only when there is one. Array items and additional or pattern
 * properties keep their nulls. default-for-absent: a property an applicable schema requires,
 * left out, takes the default that schema declares for it.
 *
 * Below a union the applicable schemas are all alternatives; where they disagree on accepting
 * null, the variant decides whether the null is absent. Returns undefined unless every rule of the
 * variant changed something (a reading that changes nothing explains nothing).
 */
export function absenceReading(
  schema: unknown,
  oracle: AjvOracle,
  input: unknown,
  variant: (typeof ABSENCE_VARIANTS)[number],
): unknown {
  const walk = new Walk(schema, oracle, variant.rules, variant.ambiguousAsAbsent);
  const reading = walk.value(input, [[]]);
  return walk.changed.size === variant.rules.length ? reading : undefined;
}

const REGEXES = new Map<string, RegExp>();

function regexOf(pattern: string): RegExp {
  let regex = REGEXES.get(pattern);
  if (regex === undefined) {
    regex = new RegExp(pattern, 'u');
    REGEXES.set(pattern, regex);
  }
  return regex;
}

/** Expansions already made, per schema: a walk asks for the same ones at every value. */
const EXPANSIONS = new WeakMap<object, Map<string, Pointer[]>>();

class Walk {
  /** The rules that changed something. */
  readonly changed = new Set<AbsenceRule>();
  constructor(
    private readonly root: unknown,
    private readonly oracle: AjvOracle,
    private readonly rules: readonly AbsenceRule[],
    private readonly ambiguousAsAbsent: boolean,
  ) {}

  value(value: unknown, nodes: Pointer[]): unknown {
    const applicable = this.expand(nodes);
    if (Array.isArray(value)) return value.map((item, i) => this.value(item, this.itemNodes(applicable, i)));
    if (typeof value !== 'object' || value === null) return value;
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const declaring = applicable
        .filter((pointer) => hasOwnObject(this.node(pointer), 'properties', key))
        .map((pointer) => [...pointer, 'properties', key]);
      if (item === null && declaring.length > 0 && this.rules.includes('null-as-absent')) {
        const accepting = declaring.filter((pointer) => this.oracle.nodeAccepts(pointer, null)).length;
        const absent = accepting === 0 || (accepting < declaring.length && this.ambiguousAsAbsent);
        const withDefault = declaring
          .map((pointer) => this.node(pointer))
          .find((node) => isObject(node) && 'default' in node);
        if (withDefault !== undefined) {
          this.changed.add('null-as-absent');
          define(result, key, structuredClone((withDefault as Record<string, unknown>).default));
        } else if (absent) this.changed.add('null-as-absent');
        else define(result, key, null);
        continue;
      }
      define(result, key, this.value(item, this.propertyNodes(applicable, key, declaring)));
    }
    if (this.rules.includes('default-for-absent')) this.fillRequired(result, applicable);
    return result;
  }

  /** Required properties left out, given the default their schema declares. */
  private fillRequired(result: Record<string, unknown>, applicable: Pointer[]): void {
    for (const pointer of applicable) {
      const node = this.node(pointer);
      if (!isObject(node) || !Array.isArray(node.required)) continue;
      for (const key of node.required) {
        if (typeof key !== 'string' || Object.hasOwn(result, key) || !hasOwnObject(node, 'properties', key)) continue;
        const property = (node.properties as Record<string, unknown>)[key];
        if (!isObject(property) || !('default' in property)) continue;
        this.changed.add('default-for-absent');
        define(result, key, structuredClone(property.default));
      }
    }
  }

  /** The schemas that apply to a property's value: declared, pattern-matched, or additional. */
  private propertyNodes(applicable: Pointer[], key: string, declaring: Pointer[]): Pointer[] {
    const nodes = [...declaring];
    for (const pointer of applicable) {
      const node = this.node(pointer);
      if (!isObject(node)) continue;
      const patterns = isObject(node.patternProperties) ? Object.keys(node.patternProperties) : [];
      const matched = patterns.filter((pattern) => regexOf(pattern).test(key));
      for (const pattern of matched) nodes.push([...pointer, 'patternProperties', pattern]);
      if (!hasOwnObject(node, 'properties', key) && matched.length === 0 && 'additionalProperties' in node)
        nodes.push([...pointer, 'additionalProperties']);
    }
    return nodes;
  }

  private itemNodes(applicable: Pointer[], index: number): Pointer[] {
    const nodes: Pointer[] = [];
    for (const pointer of applicable) {
      const node = this.node(pointer);
      if (!isObject(node)) continue;
      const prefix = Array.isArray(node.prefixItems) ? node.prefixItems.length : 0;
      if (index < prefix) nodes.push([...pointer, 'prefixItems', index]);
      else if ('items' in node) nodes.push([...pointer, 'items']);
    }
    return nodes;
  }

  /** The nodes and every node they bring in: `$ref` targets, union alternatives, then/else. */
  private expand(nodes: Pointer[]): Pointer[] {
    const key = nodes.map((pointer) => pointer.join('\u0001')).join('\u0002');
    let cache = EXPANSIONS.get(this.root as object);
    if (cache === undefined) {
      cache = new Map();
      EXPANSIONS.set(this.root as object, cache);
    }
    let expanded = cache.get(key);
    if (expanded === undefined) {
      expanded = this.expandAnew(nodes);
      cache.set(key, expanded);
    }
    return expanded;
  }

  private expandAnew(nodes: Pointer[]): Pointer[] {
    const seen = new Map<string, Pointer>();
    const visit = (pointer: Pointer) => {
      const id = JSON.stringify(pointer);
      if (seen.has(id)) return;
      seen.set(id, pointer);
      const node = this.node(pointer);
      if (!isObject(node)) return;
      if (typeof node.$ref === 'string') visit(refPointer(node.$ref));
      for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
        const alternatives = node[keyword];
        if (Array.isArray(alternatives)) for (let i = 0; i < alternatives.length; i++) visit([...pointer, keyword, i]);
      }
      for (const keyword of ['then', 'else'] as const) if (keyword in node) visit([...pointer, keyword]);
    };
    for (const pointer of nodes) visit(pointer);
    return [...seen.values()];
  }

  private node(pointer: Pointer): unknown {
    return pointer.reduce<unknown>(
      (node, key) => (isObject(node) || Array.isArray(node) ? (node as never)[key] : undefined),
      this.root,
    );
  }
}

/** A local `$ref` (`#`, `#/$defs/X`, percent-encoded, `~0`/`~1` escaped) as a pointer into the schema. */
function refPointer(ref: string): Pointer {
  const fragment = decodeURIComponent(ref.slice(ref.indexOf('#') + 1));
  if (fragment === '') return [];
  return fragment
    .slice(1)
    .split('/')
    .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasOwnObject(node: unknown, keyword: string, key: string): boolean {
  return isObject(node) && isObject(node[keyword]) && Object.hasOwn(node[keyword], key);
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
