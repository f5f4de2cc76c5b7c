import { type Token, tokensOf } from './importGraph.js';

/*
 * A reader of what a TypeScript file exports, on the tokens the import reader makes: declarations (`export const`,
 * `export function`, `export interface`, ...), lists (`export { a, type B as C }`, re-exported `from` a module or
 * not), and whole modules (`export * from`, `export type * from`). Not a parser: enough for the code it reads.
 */

/** One name a file exports: a `type` is an interface, a type alias or a name `type` marks; anything else a value. */
export interface ExportedName {
  readonly name: string;
  readonly kind: 'value' | 'type';
}

/** A module a file re-exports whole (`export * from`); `typeOnly` for `export type * from`. */
export interface WholeReExport {
  readonly specifier: string;
  readonly typeOnly: boolean;
}

/** What a file exports: the names it declares, lists or re-exports by name, and the modules it re-exports whole. */
export interface Exports {
  readonly names: readonly ExportedName[];
  readonly whole: readonly WholeReExport[];
}

const MODIFIERS = new Set(['declare', 'async', 'abstract']);
const VALUE_DECLARATIONS = new Set(['function', 'const', 'let', 'var', 'class', 'enum', 'namespace']);

/** The names of the list `{ a, type B as C }` opening at `tokens[at]`, and the index after its `}`. */
function listAt(tokens: readonly Token[], at: number, typeOnly: boolean): { names: ExportedName[]; end: number } {
  const names: ExportedName[] = [];
  let j = at + 1;
  while (j < tokens.length && tokens[j]!.text !== '}') {
    const item: string[] = [];
    for (; j < tokens.length && tokens[j]!.text !== ',' && tokens[j]!.text !== '}'; j += 1) item.push(tokens[j]!.text);
    if (tokens[j]?.text === ',') j += 1;
    const marked = item[0] === 'type' && item.length !== 1 && item[1] !== 'as';
    const words = marked ? item.slice(1) : item;
    const name = words[1] === 'as' ? words[2] : words[0];
    if (name !== undefined) names.push({ name, kind: typeOnly || marked ? 'type' : 'value' });
  }
  return { names, end: j + 1 };
}

/** What the `export` at `tokens[at]` exports. */
function exportAt(tokens: readonly Token[], at: number): Exports {
  let j = at + 1;
  while (MODIFIERS.has(tokens[j]?.text ?? '')) j += 1;
  const [word, next, after] = [tokens[j]?.text, tokens[j + 1], tokens[j + 2]];
  const none: Exports = { names: [], whole: [] };
  const declared = (name: string | undefined, kind: ExportedName['kind']): Exports =>
    name === undefined ? none : { names: [{ name, kind }], whole: [] };
  const whole = (typeOnly: boolean, from: number): Exports => {
    // `export * as all from 'x'` exports one name; `export * from 'x'` all of x's.
    if (tokens[from]?.text === 'as') return declared(tokens[from + 1]?.text, typeOnly ? 'type' : 'value');
    const specifier = tokens[from + 1]?.text;
    return specifier === undefined ? none : { names: [], whole: [{ specifier, typeOnly }] };
  };
  if (word === 'default') return declared('default', 'value');
  if (word === 'function') return declared(next?.text === '*' ? after?.text : next?.text, 'value');
  if (word === 'const' && next?.text === 'enum') return declared(after?.text, 'value');
  if (word !== undefined && VALUE_DECLARATIONS.has(word)) return declared(next?.text, 'value');
  if (word === 'interface') return declared(next?.text, 'type');
  if (word === 'type' && next?.text === '{') return { names: listAt(tokens, j + 1, true).names, whole: [] };
  if (word === 'type' && next?.text === '*') return whole(true, j + 2);
  if (word === 'type') return declared(next?.text, 'type');
  if (word === '{') return { names: listAt(tokens, j, false).names, whole: [] };
  if (word === '*') return whole(false, j + 1);
  return none;
}

/** Everything a file's source exports (`export =` and `export import` aside). */
export function exportsOf(source: string): Exports {
  const tokens = tokensOf(source);
  const found = tokens.flatMap((token, at) =>
    token.kind === 'word' && token.text === 'export' && tokens[at - 1]?.text !== '.' ? [exportAt(tokens, at)] : [],
  );
  return { names: found.flatMap((one) => one.names), whole: found.flatMap((one) => one.whole) };
}
