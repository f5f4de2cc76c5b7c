import Anthropic from '@anthropic-ai/sdk';
import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema';
import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, jsonSchema, stepCountIs, streamText, tool, type ToolSet } from 'ai';

/** What a loop ends with: the final text and every tool call, in order. */
export interface LoopOutcome {
  text: string;
  calls: { name: string; input: unknown }[];
}

/** An agent's setup: where its client sends requests, and what it asks with which tools. */
export interface LoopSetup {
  baseURL: string;
  apiKey: string;
  model: string;
  prompt: string;
  tools: Anthropic.Tool[];
  run: (name: string, input: unknown) => string;
  /** The client, where the test gives one (else each loop makes its own, with no retries). */
  client?: Anthropic;
}

const clientOf = (setup: LoopSetup) =>
  setup.client ?? new Anthropic({ apiKey: setup.apiKey, baseURL: setup.baseURL, maxRetries: 0 });

type Ask = (client: Anthropic, params: Anthropic.MessageCreateParamsNonStreaming) => Promise<Anthropic.Message>;

/** A hand-written tool loop, as people write one over the SDK: ask, run the tool calls, send the results back. */
async function toolLoop(setup: LoopSetup, ask: Ask): Promise<LoopOutcome> {
  const client = clientOf(setup);
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: setup.prompt }];
  const calls: LoopOutcome['calls'] = [];
  for (;;) {
    const response = await ask(client, { model: setup.model, max_tokens: 1024, tools: setup.tools, messages });
    messages.push({ role: 'assistant', content: response.content });
    const uses = response.content.filter((block) => block.type === 'tool_use');
    if (uses.length === 0) return { text: textOf(response.content), calls };
    for (const use of uses) calls.push({ name: use.name, input: use.input });
    messages.push({
      role: 'user',
      content: uses.map((use) => ({
        type: 'tool_result' as const,
        tool_use_id: use.id,
        content: setup.run(use.name, use.input),
      })),
    });
  }
}

const textOf = (content: readonly { type: string; text?: string }[]) =>
  content.flatMap((block) => (block.type === 'text' ? [block.text!] : [])).join('');

/** (1) A raw loop over `client.messages.create`. */
export const createLoop = (setup: LoopSetup) => toolLoop(setup, (client, params) => client.messages.create(params));

/** (2) The same over `client.messages.stream`. */
export const streamLoop = (setup: LoopSetup) =>
  toolLoop(setup, (client, params) => client.messages.stream(params).finalMessage());

/**
 * (3) The SDK's tool runner (`client.beta.messages.toolRunner`), which keeps the conversation on the
 * server (a thread): after the first request it sends only the new messages.
 */
export async function toolRunnerLoop(setup: LoopSetup): Promise<LoopOutcome> {
  const calls: LoopOutcome['calls'] = [];
  const tools = setup.tools.map((definition) =>
    betaTool({
      name: definition.name,
      description: definition.description ?? '',
      inputSchema: definition.input_schema as Parameters<typeof betaTool>[0]['inputSchema'],
      run: (input: unknown) => {
        calls.push({ name: definition.name, input });
        return setup.run(definition.name, input);
      },
    }),
  );
  const final = await clientOf(setup).beta.messages.toolRunner({
    model: setup.model,
    max_tokens: 1024,
    messages: [{ role: 'user', content: setup.prompt }],
    tools,
  });
  return { text: textOf(final.content), calls };
}

/** The setup's tools as the Vercel AI SDK declares them, each recording its calls. */
function aiSdkTools(setup: LoopSetup, calls: LoopOutcome['calls']): ToolSet {
  return Object.fromEntries(
    setup.tools.map((definition) => [
      definition.name,
      tool({
        ...(definition.description === undefined ? {} : { description: definition.description }),
        inputSchema: jsonSchema(definition.input_schema as Parameters<typeof jsonSchema>[0]),
        execute: async (input: unknown) => {
          calls.push({ name: definition.name, input });
          return setup.run(definition.name, input);
        },
      }),
    ]),
  );
}

const aiSdkModel = (setup: LoopSetup) =>
  createAnthropic({ apiKey: setup.apiKey, baseURL: `${setup.baseURL}/v1` })(setup.model);

/** (4a) The Vercel AI SDK's `generateText` with tools, over its Anthropic provider. */
export async function generateTextLoop(setup: LoopSetup): Promise<LoopOutcome> {
  const calls: LoopOutcome['calls'] = [];
  const result = await generateText({
    model: aiSdkModel(setup),
    prompt: setup.prompt,
    tools: aiSdkTools(setup, calls),
    stopWhen: stepCountIs(5),
    maxRetries: 0,
  });
  return { text: result.text, calls };
}

/** (4b) The Vercel AI SDK's `streamText` with tools; a failed step rejects, as generateText does. */
export async function streamTextLoop(setup: LoopSetup): Promise<LoopOutcome> {
  const calls: LoopOutcome['calls'] = [];
  let failure: unknown;
  const result = streamText({
    model: aiSdkModel(setup),
    prompt: setup.prompt,
    tools: aiSdkTools(setup, calls),
    stopWhen: stepCountIs(5),
    maxRetries: 0,
    onError: ({ error }) => {
      failure ??= error;
    },
  });
  const text = await Promise.resolve(result.text).catch((error: unknown) => {
    throw failure ?? error;
  });
  if (failure !== undefined) throw failure;
  return { text, calls };
}
