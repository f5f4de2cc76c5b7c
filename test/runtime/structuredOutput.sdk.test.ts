import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { useMockServer } from '../support/mockServer.js';
import * as z from 'zod';
import {
  Agent,
  AnthropicTransport,
  StructuredOutputError,
  TrajectoryDivergenceError,
  runTrajectory,
  type StreamEvent,
  type Transport,
} from '../../src/index.js';
import { parsePartialJson } from '../../src/json/partialJson.js';
import { prepareOutput } from '../../src/tools/output/prepareOutput.js';
import { messagesEndpoint } from '../support/anthropicApi.js';
import { useTempDir } from '../support/tempDir.js';

/** A real Messages API exchange from test/fixtures/api-captures (provenance in each file). */
interface Capture {
  request?: Record<string, unknown>;
  response: { status: number; body?: unknown; sse?: string };
}

function capture(name: string): Capture {
  return JSON.parse(readFileSync(join('test/fixtures/api-captures', `${name}.json`), 'utf8')) as Capture;
}

/** The captured response, served as the API sent it. */
function served(c: Capture): () => Response {
  const { status, body, sse } = c.response;
  return () =>
    sse === undefined
      ? HttpResponse.json(body as Record<string, unknown>, { status })
      : new HttpResponse(sse, { status, headers: { 'content-type': 'text/event-stream' } });
}

const server = useMockServer();

const client = () => new Anthropic({ apiKey: 'sk-ant-test-key', maxRetries: 0 });
const agentOn = (transport: Transport) =>
  new Agent({ name: 'extractor', model: 'claude-sonnet-4-5', maxTokens: 1024, transport });

/** Every `additionalProperties: false` removed: the schema as a user might write it. */
function opened(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(opened);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === 'additionalProperties' && value === false))
      .map(([key, value]) => [key, opened(value)]),
  );
}

/** Sorted keys at every level: the API reads JSON objects, not key order. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
  );
}

const orderCapture = 'anthropic-sdk-py--structured-output-parse-after-429-retries';

/** The order schema of the captured request, written in zod. */
const Order = z.object({
  items: z.array(z.object({ product_name: z.string(), price: z.number(), quantity: z.number().int() })),
  total: z.number(),
});

describe('structured outputs through the real SDK', () => {
  it('sends the schema made strict, as the SDK sent it in a real exchange, and returns the answer', async () => {
    const recorded = capture(orderCapture);
    const format = (recorded.request!.output_config as { format: { schema: unknown } }).format;
    const endpoint = messagesEndpoint([served(recorded)]);
    server.use(endpoint.handler);

    const agent = agentOn(new AnthropicTransport({ client: client(), stream: false }));
    const input = (recorded.request!.messages as { content: string }[])[0]!.content;
    const result = await agent.run(input, { output: opened(format.schema) as Record<string, unknown> });

    // The schema the user wrote without additionalProperties goes out closed at every object level,
    // exactly as the SDK's own helper sent it in the captured request.
    const sent = endpoint.bodies[0]!.output_config as { format: unknown };
    expect(sorted(sent.format)).toEqual(sorted(format));
    expect(result.stopReason).toBe('end_turn');
    expect(result.output).toEqual({
      items: [
        { product_name: 'Green Tea', price: 5.5, quantity: 2 },
        { product_name: 'Coffee', price: 3, quantity: 1 },
      ],
      total: 14,
    });
  });

  it('types result.output from a zod schema and checks the answer with it', async () => {
    server.use(messagesEndpoint([served(capture(orderCapture))]).handler);
    const agent = agentOn(new AnthropicTransport({ client: client(), stream: false }));
    const result = await agent.run('Extract the order.', { output: Order });
    // Typed: a wrong property access would not compile.
    const total: number | undefined = result.output?.total;
    const names: string[] | undefined = result.output?.items.map((item) => item.product_name);
    // @ts-expect-error: not a property of the schema, so not of the output's type (were it `any`, this would not fail).
    expect(result.output?.currency).toBeUndefined();
    expect(total).toBe(14);
    expect(names).toEqual(['Green Tea', 'Coffee']);
  });

  it('sends a schema the API already accepts unchanged (a union with a description, from a real request)', async () => {
    const recorded = capture('pydantic-ai--structured-output-strict');
    const format = (recorded.request!.output_config as { format: { schema: Record<string, unknown> } }).format;
    const endpoint = messagesEndpoint([served(recorded)]);
    server.use(endpoint.handler);
    const agent = agentOn(new AnthropicTransport({ client: client(), stream: false }));
    const result = await agent.run('Return exactly this payment amount: 12.34', { output: format.schema });
    expect(sorted((endpoint.bodies[0]!.output_config as { format: unknown }).format)).toEqual(sorted(format));
    expect(result.output).toEqual({ amount: 12.34 });
  });

  it('refuses an answer the schema does not accept, naming the path, with the finished run on the error', async () => {
    server.use(messagesEndpoint([served(capture(orderCapture))]).handler);
    const agent = agentOn(new AnthropicTransport({ client: client(), stream: false }));
    // The API does not enforce minimum (it goes in the description); legate checks it on the answer.
    const AtLeastTwo = Order.extend({
      items: z.array(z.object({ product_name: z.string(), price: z.number(), quantity: z.number().int().min(2) })),
    });
    const error = await agent.run('Extract the order.', { output: AtLeastTwo }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StructuredOutputError);
    const refused = error as StructuredOutputError;
    expect(refused.code).toBe('invalid_output');
    expect(refused.path).toEqual(['items', 1, 'quantity']);
    expect(refused.reason).toBe('out_of_range');
    expect(refused.message).toContain('items[1].quantity');
    expect(refused.message).toContain('the number 1');
    expect(refused.result.stopReason).toBe('end_turn');
    expect(refused.result.usage.outputTokens).toBe(50);
    expect(refused.text).toContain('"Coffee"');
  });

  it('streams a real structured answer whose partial values grow to the final output, enum values whole', async () => {
    const recorded = capture('ai-sdk--structured-output-format.sse');
    server.use(messagesEndpoint([served(recorded)]).handler);
    const Characters = z.object({
      characters: z.array(
        z.object({ name: z.string(), class: z.enum(['warrior', 'mage', 'thief']), description: z.string() }),
      ),
    });
    const deltas: StreamEvent[] = [];
    const agent = agentOn(new AnthropicTransport({ client: client() }));
    const result = await agent.run('Three characters.', {
      output: Characters,
      onEvent: (event) => {
        if (event.type === 'stream') deltas.push(event.event);
      },
    });
    const prepared = prepareOutput(Characters);
    let text = '';
    const partials: unknown[] = [];
    for (const event of deltas) {
      if (event.type !== 'text_delta') continue;
      text += event.text;
      const partial = parsePartialJson(text, { partialStringAt: prepared.partialStringAt });
      if (partial !== undefined) partials.push(partial.value);
    }
    expect(partials.length).toBeGreaterThan(10);
    expect(partials.at(-1)).toEqual(result.output);
    const classes = new Set(
      partials.flatMap((p) => ((p as z.input<typeof Characters>).characters ?? []).map((c) => c.class)),
    );
    classes.delete(undefined as never);
    expect([...classes].sort()).toEqual(['mage', 'thief', 'warrior']);
    expect(result.output?.characters.map((c) => c.class)).toEqual(['warrior', 'mage', 'thief']);
  });
});

describe('structured outputs recorded and replayed', () => {
  const tempDir = useTempDir();

  it('records the schema sent, recomputes the output on replay, and fails a replay whose schema changed', async () => {
    const file = join(tempDir(), 'order.yaml');
    server.use(messagesEndpoint([served(capture(orderCapture))]).handler);
    const recorded = await runTrajectory({
      file,
      agent: agentOn,
      input: 'Extract the order.',
      output: Order,
      mode: 'record',
      transport: () => new AnthropicTransport({ client: client(), stream: false }),
      report: false,
    });
    expect(recorded.trajectory!.request.output).toEqual(prepareOutput(Order).format.schema);
    expect(readFileSync(file, 'utf8')).toContain('additionalProperties: false');

    server.resetHandlers(); // a replay makes no model call
    const replayed = await runTrajectory({ file, agent: agentOn, output: Order, mode: 'replay' });
    expect(replayed.result.output).toEqual(recorded.result.output);
    expect(replayed.result.output).toMatchObject({ total: 14 });

    const Changed = Order.extend({ currency: z.string() });
    const diverged = await runTrajectory({ file, agent: agentOn, output: Changed, mode: 'replay' }).catch(
      (e: unknown) => e,
    );
    expect(diverged).toBeInstanceOf(TrajectoryDivergenceError);
    expect((diverged as Error).message).toContain('output');
    const without = await runTrajectory({ file, agent: agentOn, mode: 'replay' }).catch((e: unknown) => e);
    expect(without).toBeInstanceOf(TrajectoryDivergenceError);
  });
});
