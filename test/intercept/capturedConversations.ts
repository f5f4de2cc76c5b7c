import type Anthropic from '@anthropic-ai/sdk';
import type { LoopSetup } from './toolLoops.js';
import { capturedResponse, type CapturedResponse } from './upstream.js';

/** A key shaped like a real one, so the secret scan would catch it in a file. */
export const API_KEY = `sk-ant-api03-${'Q7'.repeat(40)}-AA`;

export const weatherTool: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Lookup the weather for a given city in either celsius or fahrenheit',
  input_schema: {
    type: 'object',
    properties: { location: { type: 'string' }, units: { type: 'string', enum: ['c', 'f'] } },
    required: ['location', 'units'],
  },
};
export const counterTool: Anthropic.Tool = {
  name: 'test_tool',
  description: 'A test tool',
  input_schema: { type: 'object', properties: { count: { type: 'number' } }, required: ['count'] },
};

/** Real captures of a two-turn tool conversation, as JSON bodies and as event streams. */
export const counter = {
  tool: counterTool,
  prompt: 'Use the test_tool with count 1, then use it again with count 2',
  captures: ['anthropic-sdk-ts--parallel-tool-use.json', 'anthropic-sdk-ts--parallel-tool-use-followup.json'],
} as const;
export const weather = {
  tool: weatherTool,
  prompt: 'What is the weather in SF?',
  captures: ['anthropic-sdk-py--tool-use.sse.json', 'anthropic-sdk-py--tool-use-followup.sse.json'],
} as const;

/**
 * Answers a request of either conversation by its tool and how far it is: its first request gets the
 * tool call, a later one the final answer. Stateless, so any number of them can run at once.
 */
export function answerByTool(body: unknown): CapturedResponse | undefined {
  const { tools, messages } = body as { tools?: { name: string }[]; messages: unknown[] };
  // A request continuing a server-held thread sends no tools and only its new messages.
  const conversation = [counter, weather].find((c) => tools?.[0]?.name === c.tool.name) ?? counter;
  return capturedResponse(conversation.captures[messages.length === 1 && tools !== undefined ? 0 : 1]);
}

/** A loop's setup for one of these conversations, its client pointed at `baseURL`. */
export function setupFor(
  conversation: { tool: Anthropic.Tool; prompt: string },
  baseURL: string,
  change: Partial<LoopSetup> = {},
): LoopSetup {
  return {
    baseURL,
    apiKey: API_KEY,
    model: 'claude-opus-4-8',
    prompt: conversation.prompt,
    tools: [conversation.tool],
    run: (name, input) => `${name} called with ${JSON.stringify(input)}`,
    ...change,
  };
}
