import type { CST } from 'yaml';
import { MAX_DOCUMENT_DEPTH } from './limits.js';
import { yamlLibrary } from './yamlLibrary.js';

/** Where in the text a trajectory's YAML stops being plain data, and why. */
interface TokenProblem {
  offset: number;
  problem: string;
}

const AMPERSAND = 38;
const EXCLAMATION = 33;
const ASTERISK = 42;

/**
 * The `yaml` library's tokens for a text, read lexeme by lexeme (its parser keeps its own stack,
 * so no nesting overflows it) and only as far as the first anchor, alias or tag, or the first
 * collection nested deeper than {@link MAX_DOCUMENT_DEPTH}: that is refused where it is, at the
 * `&`, `*` or `!`, or at the collection that goes too deep, and the rest of the text is not read.
 * A file is looked at this way before it is composed: the library's composer recurses (too deep
 * a file would overflow it), and a large file that holds an anchor costs no more than the text
 * before it. `onNewLine` is called with the offset of each line's start, as the parser's own is.
 */
export function plainTokens(
  text: string,
  onNewLine: (offset: number) => void,
): { tokens: CST.Token[] } | { refused: TokenProblem } {
  const YAML = yamlLibrary();
  const parser = new YAML.Parser(onNewLine);
  onNewLine(0); // as the parser's own `parse` does: the first line starts at 0
  const tokens: CST.Token[] = [];
  let scalar = false; // after the lexer's scalar mark, a lexeme is a scalar's text, whatever it starts with
  for (const lexeme of new YAML.Lexer().lex(text)) {
    const first = lexeme.charCodeAt(0);
    if (!scalar && (first === AMPERSAND || first === EXCLAMATION || first === ASTERISK)) {
      const problem = propertyProblem(YAML.CST.tokenType(lexeme), lexeme);
      if (problem !== undefined) return { refused: { offset: parser.offset, problem } };
    }
    scalar = lexeme === YAML.CST.SCALAR;
    for (const token of parser.next(lexeme)) tokens.push(token);
    // The stack holds the document, the collections being read, and at most a scalar: only a file
    // this deep is counted.
    if (parser.stack.length > MAX_DOCUMENT_DEPTH + 1) {
      const tooDeep = parser.stack.filter(isCollection)[MAX_DOCUMENT_DEPTH];
      if (tooDeep !== undefined) return { refused: { offset: tooDeep.offset, problem: depthProblem } };
    }
  }
  for (const token of parser.end()) tokens.push(token);
  return { tokens };
}

function isCollection(token: CST.Token): boolean {
  return token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection';
}

function propertyProblem(type: CST.TokenType | null, lexeme: string): string | undefined {
  if (type === 'anchor')
    return (
      `YAML anchors (${lexeme}) are not allowed in a trajectory; it holds plain data only, with no aliases to ` +
      'refer to them.'
    );
  if (type === 'alias') return `YAML aliases (${lexeme}) are not allowed in a trajectory; write the value out.`;
  if (type === 'tag') return `YAML tags (${lexeme}) are not allowed in a trajectory; it holds plain data only.`;
  return undefined;
}

const depthProblem =
  `the YAML nests deeper than the ${MAX_DOCUMENT_DEPTH} levels a trajectory may hold. legate writes a value ` +
  `deeper than that as JSON text (\`inputJson\`); do the same.`;
