import type { CST } from 'yaml';
import { MAX_DOCUMENT_DEPTH } from './limits.js';

/** Where in the text a trajectory's YAML stops being plain data, and why. */
export interface TokenProblem {
  offset: number;
  problem: string;
}

type Item = CST.CollectionItem;

/**
 * The first anchor, alias or tag in the `yaml` library's token tree, or the first collection nested
 * deeper than {@link MAX_DOCUMENT_DEPTH}, in the order of the text. The tokens come from its
 * parser, which keeps its own stack (no nesting overflows it); the library's composer recurses,
 * so a file is looked at here, without recursion, before it is composed. An anchor or a tag is
 * found here by its own offset (the `&` or `!`), and a file holding one is refused without the
 * composer's cost.
 */
export function firstTokenProblem(tokens: readonly CST.Token[]): TokenProblem | undefined {
  // Depth first, in the order of the text: what is pushed last is looked at first.
  const stack: { token: CST.Token | null | undefined; depth: number }[] = [];
  for (let i = tokens.length - 1; i >= 0; i--) stack.push({ token: tokens[i], depth: 0 });
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { token, depth } = next;
    if (token === null || token === undefined) continue;
    switch (token.type) {
      case 'anchor':
        return { offset: token.offset, problem: anchorProblem(token.source.slice(1)) };
      case 'tag':
        return { offset: token.offset, problem: tagProblem(token.source) };
      case 'alias':
        return { offset: token.offset, problem: aliasProblem(token.source.slice(1)) };
      case 'document':
        pushAll(stack, [...token.start, token.value], depth);
        break;
      case 'block-scalar':
        pushAll(stack, token.props, depth);
        break;
      case 'block-map':
      case 'block-seq':
      case 'flow-collection':
        if (depth >= MAX_DOCUMENT_DEPTH) return { offset: token.offset, problem: depthProblem };
        for (let i = token.items.length - 1; i >= 0; i--) pushItem(stack, token.items[i] as Item, depth + 1);
        break;
    }
  }
  return undefined;
}

function pushItem(stack: { token: CST.Token | null | undefined; depth: number }[], item: Item, depth: number): void {
  pushAll(stack, [...item.start, item.key, ...(item.sep ?? []), item.value], depth);
}

function pushAll(
  stack: { token: CST.Token | null | undefined; depth: number }[],
  tokens: (CST.Token | null | undefined)[],
  depth: number,
): void {
  for (let i = tokens.length - 1; i >= 0; i--) stack.push({ token: tokens[i], depth });
}

const depthProblem =
  `the YAML nests deeper than the ${MAX_DOCUMENT_DEPTH} levels a trajectory may hold. legate writes a value ` +
  `deeper than that as JSON text (\`inputJson\`); do the same.`;

const aliasProblem = (name: string) => `YAML aliases (*${name}) are not allowed in a trajectory; write the value out.`;
const anchorProblem = (name: string) =>
  `YAML anchors (&${name}) are not allowed in a trajectory; it holds plain data only, with no aliases to refer ` +
  'to them.';
const tagProblem = (tag: string) => `YAML tags (${tag}) are not allowed in a trajectory; it holds plain data only.`;
