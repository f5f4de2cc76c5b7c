import { isPlainObject } from '../../json/jsonValue.js';
import { toolError, type ToolError } from '../result/toolError.js';
import { RESERVED_PROPERTY_NAMES } from './checkKeywordValues.js';
import { isAllowedPropertyName, MAX_PROPERTY_NAME_LENGTH } from './propertyNameRule.js';
import { SUBSCHEMA_KEYWORDS, VALUE_KEYWORDS } from './schemaKeywords.js';
import { parseLocalRef, pointerOf } from './schemaPointer.js';

type Schema = Record<string, unknown>;

/**
 * Safe names for the property names that break the Messages API's rule (see propertyNameRule.ts),
 * each a name the rule allows, read from the original: `DateSent<` `DateSent_lt`, `filter[name]`
 * `filter_name`, `q[]` `q`, `$filter` `filter`, `a b` `a_b`, `prénom` `prenom`; cut to 64 characters.
 * Told apart from the names kept and from one another by a suffix (`_2`, `_3`, ...), given in the
 * order of the names, so the same set of names gets the same safe names whatever order it comes in.
 * Returns original name to safe name, for the renamed names only, in the order given.
 */
export function safePropertyNames(names: readonly string[]): Map<string, string> {
  const taken = new Set<string>(RESERVED_PROPERTY_NAMES);
  for (const name of names) if (isAllowedPropertyName(name)) taken.add(name);
  const unsafe = [...new Set(names.filter((name) => !isAllowedPropertyName(name)))]
    .map((name) => ({ name, base: baseName(name) }))
    .sort((a, b) => compare(a.base, b.base) || compare(a.name, b.name));
  const safe = new Map<string, string>();
  for (const { name, base } of unsafe) {
    let candidate = base;
    for (let n = 2; taken.has(candidate); n++) {
      const suffix = `_${n}`;
      candidate = base.slice(0, MAX_PROPERTY_NAME_LENGTH - suffix.length) + suffix;
    }
    taken.add(candidate);
    safe.set(name, candidate);
  }
  return new Map(names.filter((name) => safe.has(name)).map((name) => [name, safe.get(name)!]));
}

/** Comparison operators as words, the longer first: Twilio's `DateSent<` and `DateSent>` stay apart. */
const OPERATOR_WORDS: readonly (readonly [string, string])[] = [
  ['<=', 'lte'],
  ['>=', 'gte'],
  ['!=', 'ne'],
  ['<', 'lt'],
  ['>', 'gt'],
  ['=', 'eq'],
];
const ALLOWED_RUN = /[a-zA-Z0-9_.-]+/y;

/** The name shown for `name` before it is told apart from the others: its allowed runs and operators, joined by '_'. */
function baseName(name: string): string {
  // Accents dropped (`é` is `e` and a combining mark), compatibility forms made plain (a full-width `ｑ` is `q`).
  const plain = name.normalize('NFKD').replace(/\p{M}/gu, '');
  const words: string[] = [];
  let i = 0;
  while (i < plain.length) {
    ALLOWED_RUN.lastIndex = i;
    const run = ALLOWED_RUN.exec(plain);
    if (run !== null) {
      words.push(run[0]);
      i += run[0].length;
    } else if (plain.startsWith('[]', i)) {
      i += 2; // `q[]`: a list marker of the wire format, not part of the name
    } else {
      const operator = OPERATOR_WORDS.find(([symbol]) => plain.startsWith(symbol, i));
      if (operator !== undefined) words.push(operator[1]);
      // Any other character separates words.
      i += operator?.[0].length ?? String.fromCodePoint(plain.codePointAt(i)!).length;
    }
  }
  return (words.join('_') || 'arg').slice(0, MAX_PROPERTY_NAME_LENGTH);
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Keywords whose schemas describe the same value as the schema holding them (the input object, at the root). */
const SAME_VALUE = ['if', 'then', 'else', 'not'] as const;
const UNIONS = ['allOf', 'anyOf', 'oneOf'] as const;

/** A published input schema with its top-level properties renamed, and where names are tested by pattern. */
interface RenamedSchema {
  readonly schema: Schema;
  /**
   * Paths of `patternProperties` and `propertyNames` on the input object: they test the names
   * themselves, and would test the new ones.
   */
  readonly namesTested: readonly string[];
}

/**
 * The published input schema with the input object's properties renamed (`names`: original to
 * safe): in `properties`, `required` and `dependentRequired` of the root and of the conditions on
 * the input object (`if`, `then`, `else`, `not`, and unions inside them), and in every `$ref` that
 * points through a renamed property. What the schema says of each property is unchanged; the
 * schema given is not changed.
 */
export function renameProperties(schema: Schema, names: ReadonlyMap<string, string>): RenamedSchema {
  const renamedAt: string[][] = [];
  const namesTested: string[] = [];
  const renamed = renameOnInput(schema, [], names, renamedAt, namesTested) as Schema;
  rewriteRefs(renamed, names, renamedAt);
  return { schema: renamed, namesTested };
}

function renameOnInput(
  node: unknown,
  tokens: string[],
  names: ReadonlyMap<string, string>,
  renamedAt: string[][],
  namesTested: string[],
): unknown {
  if (!isPlainObject(node)) return node;
  const rename = (name: unknown) => (typeof name === 'string' ? (names.get(name) ?? name) : name);
  const copy: Schema = { ...node };
  if (isPlainObject(node.properties)) {
    copy.properties = Object.fromEntries(Object.entries(node.properties).map(([name, value]) => [rename(name), value]));
    renamedAt.push(tokens);
  }
  if (Array.isArray(node.required)) copy.required = node.required.map(rename);
  if (isPlainObject(node.dependentRequired))
    copy.dependentRequired = Object.fromEntries(
      Object.entries(node.dependentRequired).map(([name, list]) => [
        rename(name),
        Array.isArray(list) ? list.map(rename) : list,
      ]),
    );
  for (const keyword of ['patternProperties', 'propertyNames'])
    if (keyword in node) namesTested.push(['input', ...tokens, keyword].join('.'));
  for (const keyword of SAME_VALUE)
    if (keyword in node)
      copy[keyword] = renameOnInput(node[keyword], [...tokens, keyword], names, renamedAt, namesTested);
  for (const keyword of UNIONS) {
    const parts = node[keyword];
    if (Array.isArray(parts))
      copy[keyword] = parts.map((part, i) =>
        renameOnInput(part, [...tokens, keyword, String(i)], names, renamedAt, namesTested),
      );
  }
  return copy;
}

/** Points every `$ref` that goes through a renamed property (`#/properties/q[]/items`) to its new name. */
function rewriteRefs(root: Schema, names: ReadonlyMap<string, string>, renamedAt: readonly string[][]): void {
  const seen = new Set<object>();
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (!isPlainObject(node) || seen.has(node)) continue;
    seen.add(node);
    if (typeof node.$ref === 'string') {
      const ref = parseLocalRef(node.$ref);
      if (ref?.kind === 'pointer') {
        const tokens = renamedPointer(ref.tokens, names, renamedAt);
        if (tokens !== undefined) node.$ref = pointerOf(tokens);
      }
    }
    for (const [keyword, value] of Object.entries(node)) {
      if (VALUE_KEYWORDS.has(keyword)) continue;
      if ((SUBSCHEMA_KEYWORDS.single as readonly string[]).includes(keyword)) pending.push(value);
      else if ((SUBSCHEMA_KEYWORDS.list as readonly string[]).includes(keyword) && Array.isArray(value))
        pending.push(...value);
      else if ((SUBSCHEMA_KEYWORDS.map as readonly string[]).includes(keyword) && isPlainObject(value))
        pending.push(...Object.values(value));
    }
  }
}

function renamedPointer(
  tokens: readonly string[],
  names: ReadonlyMap<string, string>,
  renamedAt: readonly string[][],
): string[] | undefined {
  for (const at of renamedAt) {
    const name = tokens[at.length + 1];
    if (
      name === undefined ||
      tokens[at.length] !== 'properties' ||
      !names.has(name) ||
      at.some((token, i) => tokens[i] !== token)
    )
      continue;
    const renamed = [...tokens];
    renamed[at.length + 1] = names.get(name)!;
    return renamed;
  }
  return undefined;
}

/**
 * The model's arguments under the original names (`wireNames`: safe name to original), for the
 * tool's own code; other keys (an open input's extras) as they are. A key that is itself the
 * original of a renamed property, given beside that property's safe name, is reported (`twice`:
 * the name shown), not merged.
 */
function originalArguments(
  args: Readonly<Record<string, unknown>>,
  wireNames: Readonly<Record<string, string>>,
): { args: Record<string, unknown> } | { twice: string } {
  const entries: [string, unknown][] = [];
  for (const [key, value] of Object.entries(args)) {
    const original = Object.hasOwn(wireNames, key) ? wireNames[key]! : key;
    if (original !== key && Object.hasOwn(args, original)) return { twice: key };
    entries.push([original, value]);
  }
  return { args: Object.fromEntries(entries) };
}

/**
 * A tool's run that receives its arguments under the original names: the model's call is bound
 * against the renamed schema, then handed over as declared. A call naming one property twice
 * (an open input) is answered with an error result the model can act on.
 */
export function withOriginalNames<Context, Output>(
  run: (args: Record<string, unknown>, context: Context) => Output,
  wireNames: Readonly<Record<string, string>>,
): (args: Record<string, unknown>, context: Context) => Output | ToolError {
  return (args, context) => {
    const original = originalArguments(args, wireNames);
    if ('args' in original) return run(original.args, context);
    const shown = original.twice;
    return toolError(
      `The arguments '${shown}' and '${wireNames[shown]}' are one argument, shown to you as '${shown}'; give it ` +
        `once, as '${shown}'.`,
    );
  };
}
