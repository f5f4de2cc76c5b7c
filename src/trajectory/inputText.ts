import { jsonText } from '../json/jsonText.js';
import { isPlainObject } from '../json/jsonValue.js';
import { resultText } from './resultText.js';
import type { Trajectory } from './types.js';

/**
 * The user's input in words: text as it is; a message of content blocks (as a client at the HTTP boundary sends
 * it) block by block, a line each: a text block by its text, a tool result by the call it answers and what it told
 * the model (`[tool_result toolu_01, error] ...`), any other block by its type (and title), as {@link resultText}
 * says a tool's. `legate show` and the HTML viewer both show it so.
 */
export function inputText(input: Trajectory['input']): string {
  if (typeof input === 'string') return input;
  return input
    .map((block) => {
      if (block.type !== 'tool_result') return resultText([block] as Parameters<typeof resultText>[0]);
      const { tool_use_id: id, content, is_error: isError } = block as unknown as Record<string, unknown>;
      const head = `[tool_result${typeof id === 'string' ? ` ${id}` : ''}${isError === true ? ', error' : ''}]`;
      // A file holds the input as sent: content of another shape than the API's is shown as its JSON.
      const text =
        content === undefined
          ? ''
          : typeof content === 'string' || (Array.isArray(content) && content.every(isPlainObject))
            ? resultText(content as Parameters<typeof resultText>[0])
            : (jsonText(content) ?? '');
      return text === '' ? head : `${head} ${text}`;
    })
    .join('\n');
}
