import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import {
  Agent,
  ReplayTransport,
  ScriptedTransport,
  defineTool,
  loadTrajectory,
  reply,
  runTrajectory,
  type AgentStreamEvent,
  type MessagesRequest,
  type ModelResponse,
  type SendOptions,
  type Transport,
} from '../../src/index.js';
import { contained } from '../support/contained.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();

/** An order as the model answers it: strings, an enum, numbers, booleans, null, arrays and nesting. */
const ORDER = {
  type: 'object',
  properties: {
    customer: { type: 'string' },
    status: { type: 'string', enum: ['shipped', 'shipping', 'held'] },
    lines: {
      type: 'array',
      items: {
        type: 'object',
        properties: { sku: { type: 'string' }, quantity: { type: 'integer' }, price: { type: 'number' } },
        required: ['sku', 'quantity', 'price'],
        additionalProperties: false,
      },
    },
    gift: { type: 'boolean' },
    note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
  },
  required: ['customer', 'status', 'lines', 'gift', 'note'],
  additionalProperties: false,
} as const;

const order = fc.record({
  customer: fc.string({ unit: 'binary' }),
  status: fc.constantFrom('shipped', 'shipping', 'held'),
  lines: fc.array(
    fc.record({
      sku: fc.string(),
      quantity: fc.integer(),
      price: fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n)),
    }),
    { maxLength: 4 },
  ),
  gift: fc.boolean(),
  note: fc.option(fc.string(), { nil: null }),
});

/** A model that streams its answer's text in the pieces given, as the API may split it anywhere. */
class SplittingModel implements Transport {
  constructor(
    readonly text: string,
    readonly cuts: number[],
  ) {}

  async send(request: MessagesRequest, options: SendOptions = {}): Promise<ModelResponse> {
    const at = [...new Set([0, ...this.cuts.map((cut) => cut % (this.text.length + 1)), this.text.length])].sort(
      (a, b) => a - b,
    );
    options.onStreamEvent?.({ type: 'block_start', index: 0, block: { type: 'text' } });
    for (let i = 1; i < at.length; i++)
      options.onStreamEvent?.({ type: 'text_delta', index: 0, text: this.text.slice(at[i - 1], at[i]) });
    options.onStreamEvent?.({ type: 'block_stop', index: 0 });
    return {
      id: 'msg_split',
      type: 'message',
      role: 'assistant',
      model: request.model,
      content: [{ type: 'text', text: this.text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 10 },
    };
  }
}

describe('agent.stream with output: partial structured values', () => {
  it('grow monotonically (each contained in the next), show no half enum value, end at result.output', async () => {
    await fc.assert(
      fc.asyncProperty(
        order,
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.constantFrom(0, 2),
        async (value, cuts, indent) => {
          const text = JSON.stringify(value, null, indent);
          const agent = new Agent({
            name: 'clerk',
            model: 'claude-sonnet-5-5',
            transport: new SplittingModel(text, cuts),
          });
          const stream = agent.stream('Read me the order.', { output: ORDER });
          const partials: unknown[] = [];
          let last: AgentStreamEvent | undefined;
          for await (const event of stream) {
            if (event.type === 'output_partial') partials.push(event.partial);
            last = event;
          }
          const result = await stream.result;
          expect(last).toEqual({ type: 'result', result });
          expect(result.output).toEqual(value);
          expect(partials.length).toBeGreaterThan(0);
          expect(partials.at(-1)).toEqual(result.output);
          for (let i = 1; i < partials.length; i++)
            if (!contained(partials[i - 1], partials[i]))
              throw new Error(`${JSON.stringify(partials[i - 1])} is not contained in ${JSON.stringify(partials[i])}`);
          for (const partial of partials) {
            const status = (partial as { status?: unknown }).status;
            if (status !== undefined) expect(['shipped', 'shipping', 'held']).toContain(status);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('agent.stream with output on a recorded trajectory', () => {
  it('yields the live scripted run’s events: one partial per answering turn, the whole value', async () => {
    const answer = {
      customer: 'Ada',
      status: 'held',
      lines: [{ sku: 'A-1', quantity: 2, price: 9.5 }],
      gift: false,
      note: null,
    };
    const script = [
      reply.toolUse('lookup', { id: 'o-7' }, { text: 'Looking it up.' }),
      reply.text(JSON.stringify(answer)),
    ];
    const lookup = defineTool({
      name: 'lookup',
      description: 'Finds an order.',
      input: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      annotations: { readOnly: true },
      run: ({ id }) => `Order ${id}: 2 x A-1, held.`,
    });
    const clerk = (transport: Transport) =>
      new Agent({ name: 'clerk', model: 'claude-sonnet-5-5', tools: [lookup], transport });
    const file = join(tempDir(), 'order.yaml');
    await runTrajectory({
      file,
      agent: clerk,
      input: 'Read me order o-7.',
      output: ORDER,
      mode: 'record',
      transport: () => new ScriptedTransport(script),
      report: false,
    });
    const read = async (transport: Transport) => {
      const events: AgentStreamEvent[] = [];
      for await (const event of clerk(transport).stream('Read me order o-7.', { output: ORDER })) events.push(event);
      return events;
    };
    const live = await read(new ScriptedTransport(script));
    const replayed = await read(new ReplayTransport(loadTrajectory(file), { file }));
    expect(replayed).toEqual(live);
    expect(live.filter((event) => event.type === 'output_partial')).toEqual([
      { type: 'output_partial', agent: 'clerk', turn: 2, partial: answer },
    ]);
    expect(live.at(-1)).toMatchObject({ type: 'result', result: { output: answer } });
  });
});
