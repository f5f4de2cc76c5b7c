import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { HttpResponse, http, type JsonBodyType } from 'msw';
import { setupServer } from 'msw/node';
import { interceptAnthropic } from 'legate/intercept';
import { capturedResponse, startUpstream, type CapturedResponse } from '../../test/intercept/upstream.js';
import { createLoop, streamLoop, type LoopOutcome, type LoopSetup } from '../../test/intercept/toolLoops.js';

/**
 * The interception bench's material: real two-turn tool conversations recorded by others
 * (test/fixtures/api-captures, provenance in each file), asked for by the same hand-written tool loop
 * over the real SDK (test/intercept/toolLoops.ts) that the interception tests run. Each conversation is
 * recorded once through `interceptAnthropic` in record mode against a local stand-in for the API, then
 * replayed two ways: by `interceptAnthropic({ mode: 'replay' })` and by bare msw handlers answering the
 * same responses in order, as a team writes them by hand.
 */
export interface Conversation {
  name: string;
  loop: (setup: LoopSetup) => Promise<LoopOutcome>;
  /** The captures answering its requests, in order; the first one's request gives the model, prompt and tools. */
  captures: string[];
}

export const CONVERSATIONS: Conversation[] = [
  {
    name: 'messages.create, parallel tool_use',
    loop: createLoop,
    captures: ['anthropic-sdk-ts--parallel-tool-use.json', 'anthropic-sdk-ts--parallel-tool-use-followup.json'],
  },
  {
    name: 'messages.create, four parallel calls',
    loop: createLoop,
    captures: ['pydantic-ai--tool-use-parallel.json', 'pydantic-ai--tool-use-parallel-followup.json'],
  },
  {
    name: 'messages.stream, tool_use (SSE)',
    loop: streamLoop,
    captures: ['anthropic-sdk-py--tool-use.sse.json', 'anthropic-sdk-py--tool-use-followup.sse.json'],
  },
];

const API = 'https://api.anthropic.com';
const DIRECTORY = new URL('../../test/fixtures/api-captures/', import.meta.url);

/** A conversation ready to replay: its trajectory, the anchor's fixture and what the recorded run ended with. */
export interface Prepared {
  conversation: Conversation;
  /** The trajectory interceptAnthropic recorded. */
  file: string;
  /** The recorded responses as a JSON array of `{ status, body }` or `{ status, sse }`: the anchor's fixture. */
  fixture: string;
  /** The final text and tool calls of the recorded run. */
  recorded: LoopOutcome;
  /** How many requests the conversation makes. */
  requests: number;
  /** The loop's model, prompt, tools and tool bodies (a client is made per run). */
  setup: Omit<LoopSetup, 'client' | 'baseURL' | 'apiKey'>;
}

/** The loop's setup for a conversation: the first capture's model, prompt and tools. */
function setupOf(conversation: Conversation): Prepared['setup'] {
  const first = JSON.parse(readFileSync(new URL(conversation.captures[0]!, DIRECTORY), 'utf8')) as {
    request: { model: string; messages: { content: string | { text: string }[] }[]; tools: Anthropic.Tool[] };
  };
  const content = first.request.messages[0]!.content;
  return {
    model: first.request.model,
    prompt: typeof content === 'string' ? content : content.map((block) => block.text).join(''),
    tools: first.request.tools,
    run: (name, input) => `${name} called with ${JSON.stringify(input)}`,
  };
}

/** A new client for a run, with where it sends its requests. */
const clientOf = (baseURL: string) => ({
  baseURL,
  apiKey: 'sk-ant-bench',
  client: new Anthropic({ apiKey: 'sk-ant-bench', baseURL, maxRetries: 0 }),
});

/** Records each conversation through interceptAnthropic against a local stand-in for the API, into `dir`. */
export async function prepare(dir: string): Promise<Prepared[]> {
  const prepared: Prepared[] = [];
  for (const [i, conversation] of CONVERSATIONS.entries()) {
    const responses = conversation.captures.map(capturedResponse);
    const setup = setupOf(conversation);
    const file = join(dir, `conversation-${i}.yaml`);
    const fixture = join(dir, `conversation-${i}.responses.json`);
    writeFileSync(fixture, JSON.stringify(responses));
    const upstream = await startUpstream(responses);
    try {
      const interception = await interceptAnthropic({ file, mode: 'record', config: false, baseURL: upstream.url });
      let recorded: LoopOutcome;
      try {
        recorded = await conversation.loop({ ...setup, ...clientOf(upstream.url) });
      } finally {
        await interception.close();
      }
      prepared.push({ conversation, file, fixture, recorded, requests: responses.length, setup });
    } finally {
      await upstream.close();
    }
  }
  return prepared;
}

/*
 * Both ways set up their interception per conversation and tear it down after, and both read their
 * recording from disk then: that is how each is used, one test per conversation (interceptAnthropic reads
 * its file and starts its msw server when called; a hand-written test starts its server and loads its
 * fixture in the test or its beforeEach). Setting both up once for all conversations would leave out
 * work a user of interceptAnthropic cannot leave out. No project config is looked for (`config: false`),
 * as the anchor has none. Each builds a new client, as a test does.
 */

/** Replays a conversation through `interceptAnthropic({ mode: 'replay' })`: every request checked, then answered. */
export async function replayThroughInterception(prepared: Prepared): Promise<LoopOutcome> {
  const interception = await interceptAnthropic({ file: prepared.file, mode: 'replay', config: false });
  try {
    return await prepared.conversation.loop({ ...prepared.setup, ...clientOf(API) });
  } finally {
    await interception.close();
  }
}

/**
 * The anchor: msw's `setupServer` with an `http.post` handler answering the recorded responses in order,
 * the JSON body or the event stream as recorded. It checks nothing about the requests, as such handlers
 * seldom do; `served` counts the responses it gave.
 */
export async function replayThroughBareMsw(prepared: Prepared, served = { count: 0 }): Promise<LoopOutcome> {
  const responses = JSON.parse(readFileSync(prepared.fixture, 'utf8')) as CapturedResponse[];
  let next = 0;
  const server = setupServer(
    http.post(`${API}/v1/messages`, () => {
      const response = responses[next++];
      if (response === undefined) return HttpResponse.json({ type: 'error' }, { status: 500 });
      served.count++;
      return 'sse' in response
        ? new HttpResponse(response.sse, { status: response.status, headers: { 'content-type': 'text/event-stream' } })
        : HttpResponse.json(response.body as JsonBodyType, { status: response.status });
    }),
  );
  server.listen({ onUnhandledRequest: 'error' });
  try {
    return await prepared.conversation.loop({ ...prepared.setup, ...clientOf(API) });
  } finally {
    server.close();
  }
}
