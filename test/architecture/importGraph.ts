import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';

/*
 * A reader of the imports of TypeScript files: a tokenizer that drops comments, the text of templates and the
 * bodies of regular expressions, then the import and export declarations and `import('literal')` calls among the
 * tokens. Not a parser: enough for the code it reads, as the test shows on a fixture of each form.
 */

/** One import of one file: the file it names (relative to the root, `.ts`) and the names it takes (`default`, `*`). */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
  readonly names: readonly string[];
}

/** A token of TypeScript source: a name (or number, or a regular expression's `/regex/`), a string, or punctuation. */
export type Token = { kind: 'word' | 'string' | 'punct'; text: string };

/** Keywords after which a `/` starts a regular expression, not a division. */
const BEFORE_REGEX = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'void', 'throw', 'yield']);

/** The tokens of TypeScript source, without comments, template text or regular expressions' bodies. */
export function tokensOf(source: string): Token[] {
  const tokens: Token[] = [];
  /** The open braces: a block's (or an object's), or a template's `${`. */
  const braces: ('block' | 'template')[] = [];
  const end = source.length;
  let i = 0;
  /** Skips template text from `i` to the closing backtick, or into a `${` (its expression is read as code). */
  const skipTemplateText = (): void => {
    for (; i < end && source[i] !== '`'; i += 1) {
      if (source[i] === '\\') i += 1;
      else if (source.startsWith('${', i)) {
        i += 2;
        braces.push('template');
        return;
      }
    }
    i += 1;
  };
  const skipPast = (closer: string): void => {
    const at = source.indexOf(closer, i);
    i = at === -1 ? end : at + closer.length;
  };
  while (i < end) {
    const c = source[i]!;
    const last = tokens.at(-1);
    const regexMayStart =
      last === undefined || (last.kind === 'punct' ? !')]}'.includes(last.text) : BEFORE_REGEX.has(last.text));
    if (/\s/.test(c)) i += 1;
    else if (source.startsWith('//', i)) skipPast('\n');
    else if (source.startsWith('/*', i)) {
      i += 2;
      skipPast('*/');
    } else if (c === '`' || (c === '}' && braces.at(-1) === 'template')) {
      if (c === '}') braces.pop();
      i += 1;
      skipTemplateText();
    } else if (c === "'" || c === '"') {
      let text = '';
      for (i += 1; i < end && source[i] !== c; i += 1) text += source[i] === '\\' ? source[++i] : source[i];
      i += 1;
      tokens.push({ kind: 'string', text });
    } else if (/[\w$]/.test(c)) {
      // A name, or a number (read as a word, so that a `/` after it divides).
      const word = /^(\d[\w.]*|[\w$]+)/.exec(source.slice(i, i + 200))![0];
      tokens.push({ kind: 'word', text: word });
      i += word.length;
    } else if (c === '/' && regexMayStart) {
      let inClass = false;
      for (i += 1; i < end && (inClass || source[i] !== '/'); i += 1) {
        if (source[i] === '\\') i += 1;
        else if (source[i] === '[') inClass = true;
        else if (source[i] === ']') inClass = false;
      }
      i += 1;
      while (/\w/.test(source[i] ?? '')) i += 1;
      tokens.push({ kind: 'word', text: '/regex/' });
    } else {
      if (c === '{') braces.push('block');
      if (c === '}') braces.pop();
      tokens.push({ kind: 'punct', text: c });
      i += 1;
    }
  }
  return tokens;
}

/** One import or re-export of a file: the module it names, and the names it takes (`*`: all of them). */
interface ImportOf {
  specifier: string;
  names: string[];
}

/**
 * The names an `import('literal')` at `tokens[at]` takes: those destructured from it (`const { a, b: c } = await
 * import(...)`), the one a type reads of it (`typeof import(...).a`), or else the whole module (`*`).
 */
function loadedNames(tokens: readonly Token[], at: number): string[] {
  const after = tokens[at + 5];
  if (tokens[at - 1]?.text === 'typeof' && tokens[at + 4]?.text === '.' && after?.kind === 'word') return [after.text];
  if (tokens[at - 1]?.text !== 'await' || tokens[at - 2]?.text !== '=' || tokens[at - 3]?.text !== '}') return ['*'];
  // Back to the pattern's `{`: the name that opens each of its items (`...rest` takes the whole module).
  const names: string[] = [];
  for (let j = at - 4, depth = 0; j >= 0 && !(depth === 0 && tokens[j]!.text === '{'); j -= 1) {
    const token = tokens[j]!;
    if ('}])'.includes(token.text)) depth += 1;
    if ('{[('.includes(token.text)) depth -= 1;
    const opensItem = depth === 0 && (tokens[j - 1]?.text === ',' || tokens[j - 1]?.text === '{');
    if (opensItem) names.unshift(token.text === '.' ? '*' : token.text);
  }
  return names;
}

/** The import declaration, re-export or `import('literal')` starting at `tokens[at]`, if one does. */
function importAt(tokens: readonly Token[], at: number): ImportOf | undefined {
  const [keyword, next] = [tokens[at]!, tokens[at + 1]];
  if (keyword.kind !== 'word' || (keyword.text !== 'import' && keyword.text !== 'export')) return undefined;
  if (tokens[at - 1]?.text === '.') return undefined;
  if (keyword.text === 'import' && next?.text === '(') {
    const literal = tokens[at + 2];
    const whole = literal?.kind === 'string' && tokens[at + 3]?.text === ')';
    return whole ? { specifier: literal.text, names: loadedNames(tokens, at) } : undefined;
  }
  if (keyword.text === 'import' && next?.kind === 'string') return { specifier: next.text, names: [] };
  if (keyword.text === 'export' && !['{', '*', 'type'].includes(next?.text ?? '')) return undefined;
  // A declaration runs to `from 'x'`; an export of the file's own names meets another token first.
  const names: string[] = [];
  let inList = false;
  for (let j = at + 1; j < tokens.length; j += 1) {
    const token = tokens[j]!;
    const following = tokens[j + 1];
    if (token.text === 'from' && following?.kind === 'string') return { specifier: following.text, names };
    if (token.kind === 'string' || ';=('.includes(token.text)) return undefined;
    if (token.text === '}' && following?.text !== 'from') return undefined;
    if (token.text === '{' || token.text === '}') inList = token.text === '{';
    if (token.text === '*') names.push('*');
    const isName = token.kind === 'word' && token.text !== 'type' && token.text !== 'as';
    // A name outside the braces (`import def from`) is the module's default export, under a name of the importer's.
    if (isName && tokens[j - 1]?.text !== 'as') names.push(inList ? token.text : 'default');
  }
  return undefined;
}

/** The specifiers a file imports or re-exports from (type-only too), each with the names it takes. */
export function importsOf(source: string): ImportOf[] {
  const tokens = tokensOf(source);
  return tokens.flatMap((_, at) => importAt(tokens, at) ?? []);
}

/** The `.ts` files under `folder` of `root`, as paths relative to it with `/`. */
export function tsFiles(root: string, folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = posix.join(folder, entry.name);
    if (entry.isDirectory()) return tsFiles(root, path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every import between the `.ts` files under `folders` of `root` (paths relative to it, with `/`). */
export function importGraph(root: string, folders: readonly string[]): ImportEdge[] {
  const files = new Set(folders.flatMap((folder) => tsFiles(root, folder)));
  return [...files].flatMap((from) =>
    importsOf(readFileSync(join(root, from), 'utf8')).flatMap(({ specifier, names }) => {
      if (!specifier.startsWith('.')) return [];
      const target = relative(root, join(root, dirname(from), specifier))
        .split('\\')
        .join('/');
      const to = target.replace(/\.js$/, '.ts');
      return files.has(to) ? [{ from, to, names }] : [];
    }),
  );
}
