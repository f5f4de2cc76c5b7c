import type Anthropic from '@anthropic-ai/sdk';
import { seededDraws } from '../support/seededModel.js';
import { createLoop, type LoopOutcome } from './toolLoops.js';
import { startUpstream, type CapturedResponse } from './upstream.js';

export const API_KEY = `sk-ant-api03-${'S7'.repeat(40)}-AA`;
export const PROMPT = 'Is acct-7 open?';
const MODEL = 'claude-haiku-4-5';

export const lookupTool: Anthropic.Tool = {
  name: 'lookup',
  description: 'Looks an account up.',
  input_schema: { type: 'object', properties: { account: { type: 'string' } }, required: ['account'] },
};

/**
 * A local stand-in for the API whose answers vary with a seed, as a live model's vary from run to run: each
 * conversation whose prompt starts with PROMPT draws the next number, and looks the account up first when the draw
 * is under `lookupRate`, else answers at once. Any other prompt gets a plain answer. `choices` says, per
 * conversation, whether it looked up; `text(run, looked)` is each final answer (so a test can plant something in one
 * run's answer).
 */
export async function startSeededUpstream(
  seed: number,
  options: { lookupRate?: number; text?: (run: number, looked: boolean) => string } = {},
) {
  const draw = seededDraws(seed);
  const { lookupRate = 0.5, text = (_: number, looked: boolean) => (looked ? 'acct-7 is open.' : 'It is open.') } =
    options;
  const choices: boolean[] = [];
  let others = 0;
  const upstream = await startUpstream((body): CapturedResponse => {
    const { messages } = body as Anthropic.MessageCreateParams;
    const first = messages[0]!.content;
    if (typeof first !== 'string' || !first.startsWith(PROMPT))
      return message(`msg_other_${++others}`, [{ type: 'text', text: `Noted: ${first}` }]);
    if (messages.length === 1) choices.push(draw() < lookupRate);
    const run = choices.length;
    const last = messages.at(-1)!.content;
    const looked = Array.isArray(last) && last.some((block) => block.type === 'tool_result');
    if (choices[run - 1] && !looked)
      return message(
        `msg_${run}_1`,
        [{ type: 'tool_use', id: `toolu_${run}`, name: 'lookup', input: { account: 'acct-7' } }],
        'tool_use',
      );
    return message(`msg_${run}_${looked ? 2 : 1}`, [{ type: 'text', text: text(run, looked) }]);
  });
  return { ...upstream, choices };
}

function message(id: string, content: unknown[], stop = 'end_turn'): CapturedResponse {
  return {
    status: 200,
    body: {
      id,
      type: 'message',
      role: 'assistant',
      model: MODEL,
      content,
      stop_reason: stop,
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 6 },
    },
  };
}

/** The code under test: a raw SDK tool loop asking PROMPT (or `prompt`), whose lookup answers `answer`. */
export function askAccount(baseURL: string, answer = 'open', prompt = PROMPT): Promise<LoopOutcome> {
  return createLoop({
    baseURL,
    apiKey: API_KEY,
    model: MODEL,
    prompt,
    tools: [lookupTool],
    run: (_, input) => `${(input as { account: string }).account}: ${answer}`,
  });
}
