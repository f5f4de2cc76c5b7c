import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  Agent,
  ScriptedTransport,
  defineTool,
  reply,
  type Message,
  type ModelResponse,
  type ScriptStep,
} from '../../src/index.js';
import { conversationBreach } from '../support/apiConversation.js';

/**
 * The conversations legate sends are ones the API accepts: no empty assistant message after a
 * refusal or an empty end_turn, and a tool_use cut off by max_tokens never sent back, never run,
 * never recorded as the model's input.
 */

const model = 'claude-sonnet-5-5';
const capture = (name: string) =>
  JSON.parse(readFileSync(join('test/fixtures/api-captures', `${name}.json`), 'utf8')).response.body as ModelResponse;

function saveTool(run = vi.fn(() => 'saved')) {
  return {
    run,
    tool: defineTool({
      name: 'save_file',
      description: 'Saves a file.',
      input: {
        type: 'object',
        properties: { name: { type: 'string' }, text: { type: 'string' } },
        required: ['name', 'text'],
      },
      run,
    }),
  };
}

/** Runs the agent, then continues its conversation with a second input, as a chat would. */
async function runAndContinue(first: ScriptStep) {
  const { tool, run } = saveTool();
  const transport = new ScriptedTransport([first, reply.text('Here you are.')]);
  const agent = new Agent({ name: 'writer', model, transport, tools: [tool], maxTokens: 64 });
  const result = await agent.run('Write my tax guide to taxes.txt.');
  const next = await agent.run('Go on.', { history: result.messages });
  return { result, next, transport, run };
}

const empty = (message: Message) =>
  message.role === 'assistant' && Array.isArray(message.content) && message.content.length === 0;

describe('no empty assistant message', () => {
  it.each([
    ['a refusal with no content (real capture)', capture('ai-sdk--refusal-no-details')],
    ['a refusal with stop_details (real capture)', capture('ai-sdk--refusal-stop-details')],
    ['an empty end_turn', { content: [], stopReason: 'end_turn' } as ScriptStep],
  ])('after %s, the conversation holds none and the next request is one the API accepts', async (_name, step) => {
    const { result, transport } = await runAndContinue(step);
    expect(result.messages.some(empty)).toBe(false);
    expect(result.messages).toEqual([{ role: 'user', content: 'Write my tax guide to taxes.txt.' }]);
    expect(result.responses).toHaveLength(1); // the response itself is kept, as it came
    expect(transport.requests[1]!.messages.some(empty)).toBe(false);
    expect(conversationBreach(transport.requests[1]!)).toBeUndefined();
  });

  it('the checker refuses the conversation the unguarded loop used to send', () => {
    const unguarded = {
      messages: [
        { role: 'user', content: 'Write my tax guide.' },
        { role: 'assistant', content: [] },
        { role: 'user', content: 'Go on.' },
      ] as Message[],
    };
    expect(conversationBreach(unguarded)?.rule).toBe('nonEmpty');
  });
});

describe('a tool_use cut off by max_tokens', () => {
  const cutOff: ScriptStep = {
    content: [
      { type: 'text', text: "I'll save both files." },
      { type: 'tool_use', id: 'toolu_full', name: 'save_file', input: { name: 'a.txt', text: 'A' } },
      // What the SDK makes of `{"name": "taxes.txt", "text": "Multiple W2s: fi` : the cut string dropped.
      { type: 'tool_use', id: 'toolu_cut', name: 'save_file', input: { name: 'taxes.txt' } },
    ],
    stopReason: 'max_tokens',
  };

  it('is never run nor sent back; a complete call of the response is not run either, and is answered', async () => {
    const { result, next, transport, run } = await runAndContinue(cutOff);
    expect(run).not.toHaveBeenCalled();
    expect(result.stopReason).toBe('max_tokens');
    expect(result.toolCalls.map((call) => [call.id, call.outcome, call.input])).toEqual([
      ['toolu_full', 'incomplete', { name: 'a.txt', text: 'A' }],
      ['toolu_cut', 'incomplete', undefined],
    ]);
    expect(result.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: "I'll save both files." },
          { type: 'tool_use', id: 'toolu_full', name: 'save_file', input: { name: 'a.txt', text: 'A' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_full',
            content: expect.stringContaining('Not run: your response was cut off by the output limit (max_tokens 64)'),
            is_error: true,
          },
        ],
      },
    ]);
    expect(conversationBreach(transport.requests[1]!)).toBeUndefined();
    expect(next.stopReason).toBe('end_turn');
  });

  it('when it is the only block, leaves no assistant message at all', async () => {
    const { result, transport } = await runAndContinue({
      content: [{ type: 'tool_use', name: 'save_file', input: {} }],
      stopReason: 'max_tokens',
    });
    expect(result.messages).toHaveLength(1);
    expect(result.toolCalls.map((call) => call.outcome)).toEqual(['incomplete']);
    expect(conversationBreach(transport.requests[1]!)).toBeUndefined();
  });

  it('a tool_use that is not the last block of a max_tokens response was sent whole, and is answered', async () => {
    const { result } = await runAndContinue({
      content: [
        { type: 'tool_use', id: 'toolu_whole', name: 'save_file', input: { name: 'a', text: 'b' } },
        { type: 'text', text: 'And then I wi' },
      ],
      stopReason: 'max_tokens',
    });
    expect(result.toolCalls.map((call) => [call.outcome, call.input])).toEqual([
      ['incomplete', { name: 'a', text: 'b' }],
    ]);
    expect(result.messages.at(-1)).toMatchObject({ role: 'user', content: [{ tool_use_id: 'toolu_whole' }] });
  });
});
