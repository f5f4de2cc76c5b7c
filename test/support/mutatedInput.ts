import fc from 'fast-check';

/** How a valid input was changed. Independent of the schema: these know nothing of what it says. */
export type Mutation =
  | 'replace_subtree'
  | 'delete_key'
  | 'add_key'
  | 'rename_key'
  | 'change_type'
  | 'set_null'
  | 'duplicate_item'
  | 'drop_item'
  | 'add_item'
  | 'nudge_number'
  | 'edit_string'
  | 'wrap_in_array'
  | 'as_json_text';

const MUTATIONS: readonly Mutation[] = [
  'replace_subtree',
  'delete_key',
  'add_key',
  'rename_key',
  'change_type',
  'set_null',
  'duplicate_item',
  'drop_item',
  'add_item',
  'nudge_number',
  'edit_string',
  'wrap_in_array',
  'as_json_text',
];

export interface MutatedCase {
  input: unknown;
  mutations: Mutation[];
}

interface Step {
  mutation: Mutation;
  /** Picks the place (modulo the places the mutation applies to). */
  pick: number;
  /** Picks among a mutation's variants. */
  variant: number;
  value: unknown;
  key: string;
}

const KEYS = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom('__proto__', 'constructor', 'toString', 'id', 'type', 'name', 'value', 'a', 'extra'),
);

const SCALAR = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, '', 'x', 'null', '0', 'true'),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 10 }),
);

/**
 * Any JSON value, kept small (generating it is most of the cost of a case). Objects are plain, as
 * JSON.parse makes them: ajv's equality (uniqueItems, const) tells a null-prototype object from a
 * plain one with the same members, which no input from the wire can be.
 */
const VALUE: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: SCALAR },
  { weight: 1, arbitrary: fc.array(SCALAR, { maxLength: 3 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(fc.string({ maxLength: 4 }), SCALAR, { maxKeys: 3, noNullPrototype: true }),
  },
);

/** Each mutation as likely as another, but for JSON text (a check of parsing, not of the schema): rarer. */
const MUTATION = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...MUTATIONS.filter((m) => m !== 'as_json_text')) },
  { weight: 1, arbitrary: fc.constant<Mutation>('as_json_text') },
);

const step: fc.Arbitrary<Step> = fc.record({
  mutation: MUTATION,
  pick: fc.nat(),
  variant: fc.nat(),
  value: VALUE,
  key: KEYS,
});

/**
 * A valid input changed in one to three random places: a subtree replaced, deleted or added, a
 * key renamed, a value's type changed, an array item duplicated or dropped, a number nudged, a
 * string edited. It feeds the oracle inputs that neither fuzz generator would make.
 */
export function mutatedInput(valid: fc.Arbitrary<unknown>): fc.Arbitrary<MutatedCase> {
  return fc.tuple(valid, fc.array(step, { minLength: 1, maxLength: 3 })).map(([input, steps]) => {
    let value = structuredClone(input);
    for (const s of steps) value = apply(value, s);
    return { input: value, mutations: steps.map((s) => s.mutation) };
  });
}

type Path = (string | number)[];

function apply(root: unknown, s: Step): unknown {
  if (s.mutation === 'as_json_text') return JSON.stringify(root);
  const places = placesWhere(root, (value, path) => applies(s.mutation, value, path));
  if (places.length === 0) return root;
  const { path, value: target } = places[s.pick % places.length]!;
  switch (s.mutation) {
    case 'replace_subtree':
      return put(root, path, s.value);
    case 'set_null':
      return put(root, path, null);
    case 'change_type':
      return put(root, path, otherType(target, s.variant));
    case 'wrap_in_array':
      return put(root, path, [target]);
    case 'nudge_number':
      return put(root, path, nudged(target as number, s.variant));
    case 'edit_string':
      return put(root, path, edited(target as string, s.variant, s.key));
    case 'delete_key': {
      const keys = Object.keys(target as object);
      delete (target as Record<string, unknown>)[keys[s.variant % keys.length]!];
      return root;
    }
    case 'add_key':
      define(target as object, s.key, s.value);
      return root;
    case 'rename_key': {
      const record = target as Record<string, unknown>;
      const keys = Object.keys(record);
      const old = keys[s.variant % keys.length]!;
      const renamed = [old.toUpperCase(), `${old}_`, old.slice(1), `${old} `, s.key][s.variant % 5]!;
      const moved = record[old];
      delete record[old];
      define(record, renamed, moved);
      return root;
    }
    case 'duplicate_item': {
      const items = target as unknown[];
      items.push(structuredClone(items[s.variant % items.length]));
      return root;
    }
    case 'drop_item':
      (target as unknown[]).splice(s.variant % (target as unknown[]).length, 1);
      return root;
    case 'add_item':
      (target as unknown[]).splice(s.variant % ((target as unknown[]).length + 1), 0, s.value);
      return root;
    default:
      return root;
  }
}

function applies(mutation: Mutation, value: unknown, path: Path): boolean {
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  switch (mutation) {
    case 'delete_key':
    case 'rename_key':
      return isObject && Object.keys(value).length > 0;
    case 'add_key':
      return isObject;
    case 'duplicate_item':
    case 'drop_item':
      return Array.isArray(value) && value.length > 0;
    case 'add_item':
      return Array.isArray(value);
    case 'nudge_number':
      return typeof value === 'number';
    case 'edit_string':
      return typeof value === 'string';
    case 'set_null':
    case 'replace_subtree':
    case 'change_type':
    case 'wrap_in_array':
      // The root stays an object: breaking it whole is malformedInput's not_an_object.
      return path.length > 0;
    default:
      return false;
  }
}

function otherType(value: unknown, variant: number): unknown {
  if (typeof value === 'string') return [numberIn(value), value.length, value === 'true', { value }][variant % 4];
  if (typeof value === 'number') return [String(value), value !== 0, [value]][variant % 3];
  if (typeof value === 'boolean') return [String(value), Number(value)][variant % 2];
  if (value === null) return ['', 0, false, 'null'][variant % 4];
  if (Array.isArray(value))
    return [value[0] ?? '', Object.fromEntries(value.entries()), value.map((item) => JSON.stringify(item)).join(',')][
      variant % 3
    ];
  const entries = Object.entries(value as object);
  return [entries.map(([, v]) => v), JSON.stringify(value), entries.length][variant % 3];
}

/** The number a text spells, or its length: mutations make JSON values only (no NaN). */
function numberIn(text: string): number {
  const n = Number(text);
  return Number.isFinite(n) ? n : text.length;
}

function nudged(n: number, variant: number): number {
  const variants = [n + 1, n - 1, n + 0.5, -n, n * 1000, 0, n + 0.1, Math.round(n * 10) / 10 + 0.2, 1e21, 2 ** 53 + 2];
  const nudge = variants[variant % variants.length]!;
  return Number.isFinite(nudge) ? nudge : n;
}

function edited(text: string, variant: number, key: string): string {
  switch (variant % 10) {
    case 0:
      return '';
    case 1:
      return `${text}x`;
    case 2:
      return text.slice(1);
    case 3:
      return text.toUpperCase();
    case 4:
      return ` ${text}`;
    case 5:
      return text.repeat(50);
    case 6:
      return `${text}${key}`;
    case 7:
      return text.replace(/\d/, (d) => String((Number(d) + 1) % 10));
    case 8:
      return `${text}\u0000`;
    default:
      return '😀'.repeat(text.length + 1);
  }
}

/** The places in a value (the root first, in document order) where `test` holds, with what is there. */
function placesWhere(root: unknown, test: (value: unknown, path: Path) => boolean): { path: Path; value: unknown }[] {
  const found: { path: Path; value: unknown }[] = [];
  const path: Path = [];
  const visit = (value: unknown) => {
    if (test(value, path)) found.push({ path: [...path], value });
    if (typeof value !== 'object' || value === null) return;
    for (const [key, item] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
      path.push(key);
      visit(item);
      path.pop();
    }
  };
  visit(root);
  return found;
}

function at(root: unknown, path: Path): unknown {
  return path.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], root);
}

function put(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const parent = at(root, path.slice(0, -1)) as Record<string | number, unknown>;
  define(parent, path[path.length - 1]!, value);
  return root;
}

/** Sets an own property, even one named `__proto__`, the way JSON.parse would. */
function define(target: object, key: string | number, value: unknown): void {
  if (Array.isArray(target) && typeof key === 'number') target[key] = value;
  else Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
