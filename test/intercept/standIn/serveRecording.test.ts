import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { interceptAnthropic, startStandIn, type StandIn } from '../../../src/intercept/index.js';
import { parseSse } from '../../../src/intercept/exchange.js';
import { conversationsOf } from '../../../src/trajectory/conversationsOf.js';
import { loadTrajectory } from '../../../src/trajectory/trajectoryFile.js';
import { useTempDir } from '../../support/tempDir.js';
import { answerByTool, API_KEY, counter, setupFor, weather } from '../capturedConversations.js';
import { createLoop, type LoopOutcome, type LoopSetup, streamLoop } from '../toolLoops.js';
import { capturedResponse, startUpstream } from '../upstream.js';

// startStandIn serving a recording: each conversation's responses in its order, as recorded.

const tempDir = useTempDir();
const started: StandIn[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((standIn) => standIn.close()));
});

async function serve(trajectory: string): Promise<StandIn> {
  const standIn = await startStandIn({ trajectory });
  started.push(standIn);
  return standIn;
}

/** trajectories/tool-loop.yaml's agent, as a raw SDK loop: its prompt, its tool, its tool's answer. */
function orderDesk(baseURL: string): LoopSetup {
  return {
    baseURL,
    apiKey: 'stand-in',
    model: 'claude-haiku-4-5',
    prompt: 'Where is my order A-1001?',
    tools: [{ name: 'lookup_order', input_schema: { type: 'object', properties: { orderId: { type: 'string' } } } }],
    run: () => '{"found":true,"status":"shipped"}',
  };
}

describe('startStandIn with a trajectory', () => {
  it('serves a committed trajectory turn by turn, over create and over stream, as it was recorded', async () => {
    const recorded = loadTrajectory('trajectories/tool-loop.yaml');
    for (const loop of [createLoop, streamLoop]) {
      const standIn = await serve('trajectories/tool-loop.yaml');
      const outcome = await loop(orderDesk(standIn.url));
      expect(outcome).toEqual({
        text: 'Your order A-1001 (a kettle and a tea tin) has shipped.',
        calls: [{ name: 'lookup_order', input: { orderId: 'A-1001' } }],
      });
      expect(standIn.requests).toHaveLength(2);
    }
    // The response itself: the recorded id, model and usage, whatever model the request named.
    const standIn = await serve('trajectories/tool-loop.yaml');
    const first = await new Anthropic({ apiKey: 'stand-in', baseURL: standIn.url }).messages.create({
      model: 'claude-haiku-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Where is my order A-1001?' }],
    });
    expect(first).toMatchObject({
      id: recorded.turns[0]!.response.id,
      model: 'claude-haiku-5-5',
      usage: { input_tokens: 136, output_tokens: 34 },
      stop_reason: 'tool_use',
    });
  });

  it('refuses a request past the recording: one continuing a finished conversation, one starting none', async () => {
    const standIn = await serve('trajectories/tool-loop.yaml');
    const client = new Anthropic({ apiKey: 'stand-in', baseURL: standIn.url });
    const setup = orderDesk(standIn.url);
    await createLoop({ ...setup, client });
    const [, second] = standIn.requests.map((request) => request.body as Anthropic.MessageCreateParamsNonStreaming);
    const answer = 'Your order A-1001 (a kettle and a tea tin) has shipped.';
    const last = { role: 'assistant' as const, content: [{ type: 'text' as const, text: answer }] };
    const onwards = [...second!.messages, last, { role: 'user' as const, content: 'Thanks!' }];
    const refusal = (messages: Anthropic.MessageParam[]) =>
      client.messages.create({ ...second!, messages }).then(
        () => 'answered',
        (error: { status: number; error: { error: { type: string; message: string } } }) => [
          error.status,
          error.error.error.type,
          error.error.error.message,
        ],
      );
    expect(await refusal(onwards)).toEqual([
      400,
      'invalid_request_error',
      'The stand-in has no response left for this request: it continues trajectories/tool-loop.yaml, whose 2 ' +
        'recorded turns were all served. Record the conversation again, or end it sooner.',
    ]);
    expect(await refusal([{ role: 'user', content: 'And my other order?' }])).toEqual([
      400,
      'invalid_request_error',
      'The stand-in has no response for this request (1 message): it continues none of the conversations it ' +
        'served, and trajectories/tool-loop.yaml has no conversation left to start (it has 1). A request ' +
        'continues a conversation when it sends back its last request and the response it got; record the ' +
        'client again if it now sends other requests.',
    ]);
    // Each refused once: not retried.
    expect(standIn.requests).toHaveLength(4);
  });

  it('serves each of several conversations to the client that continues it, its events as recorded', async () => {
    // Two clients recorded against real captured responses: a create loop (JSON) and a stream loop (events,
    // the API's `ping` among them).
    const file = join(tempDir(), 'two-clients.yaml');
    const upstream = await startUpstream(answerByTool);
    const agents = (baseURL: string) => ({
      counter: () => createLoop(setupFor(counter, baseURL, { client: new Anthropic({ apiKey: API_KEY, baseURL }) })),
      weather: () => streamLoop(setupFor(weather, baseURL, { client: new Anthropic({ apiKey: API_KEY, baseURL }) })),
    });
    const interception = await interceptAnthropic({ file, mode: 'record', config: false, baseURL: upstream.url });
    const recorded = { counter: await agents(upstream.url).counter(), weather: await agents(upstream.url).weather() };
    await interception.close();
    await upstream.close();
    expect(conversationsOf(loadTrajectory(file)).map((c) => c.tools[0]!.name)).toEqual(['test_tool', 'get_weather']);

    // Served in the other order: the weather client's first request is the second conversation's, so it gets that.
    const standIn = await serve(file);
    const served: Record<string, LoopOutcome> = {};
    served.weather = await agents(standIn.url).weather();
    served.counter = await agents(standIn.url).counter();
    expect(served).toEqual(recorded);

    // At the same time, each client still gets its own conversation.
    const again = await serve(file);
    const both = await Promise.all([agents(again.url).weather(), agents(again.url).counter()]);
    expect(both).toEqual([recorded.weather, recorded.counter]);

    // A streamed turn is the events the API sent, not events made up from the response.
    const events = await serve(file);
    const body = await fetch(`${events.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({
        ...(again.requests.find((r) => (r.body as { stream?: boolean }).stream)!.body as object),
      }),
    });
    const captured = capturedResponse(weather.captures[0]) as { sse: string };
    expect(parseSse(await body.text())).toEqual(parseSse(captured.sse));
    expect(parseSse(captured.sse).map((event) => event.type)).toContain('ping');
  });
});
