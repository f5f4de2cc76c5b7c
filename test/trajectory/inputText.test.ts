import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inputText } from '../../src/trajectory/inputText.js';
import type { Trajectory } from '../../src/trajectory/types.js';

/** The last user message a captured request sent (test/fixtures/api-captures), as a run's input. */
function lastUserMessage(capture: string): Trajectory['input'] {
  const { request } = JSON.parse(readFileSync(`test/fixtures/api-captures/${capture}`, 'utf8')) as {
    request: { messages: { role: string; content: Trajectory['input'] }[] };
  };
  return request.messages.findLast((message) => message.role === 'user')!.content;
}

describe('inputText', () => {
  it('gives text as it is', () => {
    expect(inputText('Pay the invoice.\n  Now.')).toBe('Pay the invoice.\n  Now.');
  });

  it('gives the tool results a client sent back (the TypeScript SDK, pydantic-ai) by their call and text', () => {
    expect(inputText(lastUserMessage('anthropic-sdk-ts--parallel-tool-use-followup.json'))).toBe(
      '[tool_result toolu_01L8GVQapA1HmggQcrwboukH] Called with 1\n' +
        '[tool_result toolu_01J5Fvzxu7DP1Uh59c1kr5JD] Called with 2',
    );
    const pydantic = inputText(lastUserMessage('pydantic-ai--tool-use-parallel-followup.json')).split('\n');
    expect(pydantic[0]).toBe("[tool_result toolu_0167cfEnoQaPviGdVXA95zcu] alice is bob's wife");
    expect(pydantic).toHaveLength(4);
  });

  it('gives a result of content blocks by their text, an error as one, and another block by its type', () => {
    const input = [
      { type: 'text', text: 'What does the page say?' },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        is_error: true,
        content: [
          { type: 'text', text: 'Timed out' },
          { type: 'text', text: 'after 30 s.' },
        ],
      },
      { type: 'tool_result', tool_use_id: 'toolu_2' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
    ] as Trajectory['input'];
    expect(inputText(input)).toBe(
      'What does the page say?\n[tool_result toolu_1, error] Timed out after 30 s.\n[tool_result toolu_2]\n[image]',
    );
  });

  it('gives content of a shape the API does not take as its JSON', () => {
    const input = [
      { type: 'tool_result', tool_use_id: 'toolu_1', content: [1, null] },
    ] as unknown as Trajectory['input'];
    expect(inputText(input)).toBe('[tool_result toolu_1] [1,null]');
  });
});
