import { describe, expect, it, vi } from 'vitest';
import {
  Agent,
  AgentConfigurationError,
  ModelResponseError,
  ScriptedTransport,
  defineTool,
  reply,
  type AgentEvent,
  type ToolResultBlock,
  type UserMessage,
} from '../../src/index.js';
import { caught } from '../support/caught.js';
import { emptyUsage } from '../../src/runtime/runUsage.js';

const model = 'claude-sonnet-5-5';
const twoIntegers = {
  type: 'object',
  properties: { left: { type: 'integer' }, right: { type: 'integer' } },
  required: ['left', 'right'],
} as const;

function calculator(run = vi.fn((args: { left: number; right: number }) => String(args.left + args.right))) {
  return { run, tool: defineTool({ name: 'add', description: 'Adds two whole numbers.', input: twoIntegers, run }) };
}

/** The tool_result blocks of the user message at `index`. */
function resultsAt(messages: readonly unknown[], index: number): ToolResultBlock[] {
  return (messages[index] as UserMessage).content as ToolResultBlock[];
}

describe('Agent.run', () => {
  it('runs a two-turn tool loop and records the conversation in Messages API form', async () => {
    const { tool, run } = calculator();
    const transport = new ScriptedTransport([
      reply.toolUse('add', { left: 40, right: 2 }, { text: 'Adding.' }),
      reply.text('It is 42.'),
    ]);
    const agent = new Agent({ name: 'calculator', model, system: 'You add numbers.', tools: [tool], transport });
    const result = await agent.run('What is 40 + 2?');

    expect(run).toHaveBeenCalledTimes(1);
    expect(run.mock.calls[0]![0]).toEqual({ left: 40, right: 2 });
    expect(result).toMatchObject({ agent: 'calculator', text: 'It is 42.', stopReason: 'end_turn', turns: 2 });
    expect(result.messages).toEqual([
      { role: 'user', content: 'What is 40 + 2?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Adding.' },
          { type: 'tool_use', id: 'toolu_s1_1', name: 'add', input: { left: 40, right: 2 } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_s1_1', content: '42' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'It is 42.' }] },
    ]);
    expect(result.toolCalls).toEqual([
      { id: 'toolu_s1_1', name: 'add', input: { left: 40, right: 2 }, outcome: 'ok', output: '42', turn: 1 },
    ]);
    expect(transport.requests[0]).toEqual({
      model,
      max_tokens: 4096,
      system: 'You add numbers.',
      messages: [{ role: 'user', content: 'What is 40 + 2?' }],
      tools: [tool.definition()],
    });
    transport.assertDone();
  });

  it(
    'answers invalid arguments with one is_error result, never running the tool, and lets the model correct ' +
      'itself',
    async () => {
      const { tool, run } = calculator();
      const transport = new ScriptedTransport([
        reply.toolUse('add', { left: 'one', right: 2 }),
        reply.toolUse('add', { left: 1, right: 2 }),
        reply.text('3'),
      ]);
      const result = await new Agent({ name: 'calculator', model, tools: [tool], transport }).run('1 + 2?');

      const refused = resultsAt(result.messages, 2);
      expect(refused).toEqual([
        {
          type: 'tool_result',
          tool_use_id: 'toolu_s1_1',
          is_error: true,
          content: `Tool 'add' argument 'left' must be a whole number, but the value was the string "one".`,
        },
      ]);
      expect(run).toHaveBeenCalledTimes(1);
      expect(run.mock.calls[0]![0]).toEqual({ left: 1, right: 2 });
      expect(result.toolCalls.map((c) => c.outcome)).toEqual(['invalid', 'ok']);
      expect(result.toolCalls[0]!.error).toEqual({
        error: 'invalid_argument',
        tool: 'add',
        argument: 'left',
        path: ['left'],
        code: 'invalid_type',
        message: refused[0]!.content,
      });
    },
  );

  it('runs every tool_use of one response concurrently and answers them in one message, in block order', async () => {
    const started: string[] = [];
    const releases = new Map<string, () => void>();
    const slow = defineTool({
      name: 'lookup',
      description: 'Looks up a key.',
      input: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
      run: ({ key }) =>
        new Promise<string>((resolve) => {
          started.push(key);
          releases.set(key, () => resolve(`value of ${key}`));
          // Both calls must have started before either may finish: proof they run at once.
          if (started.length === 2) {
            releases.get('b')!();
            releases.get('a')!();
          }
        }),
    });
    const transport = new ScriptedTransport([
      reply.toolUses([
        { name: 'lookup', input: { key: 'a' } },
        { name: 'lookup', input: { key: 'b' } },
      ]),
      reply.text('done'),
    ]);
    const result = await new Agent({ name: 'a', model, tools: [slow], transport }).run('look up a and b');

    expect(started).toEqual(['a', 'b']);
    expect(result.messages).toHaveLength(4);
    expect(resultsAt(result.messages, 2).map((r) => [r.tool_use_id, r.content])).toEqual([
      ['toolu_s1_1', 'value of a'],
      ['toolu_s1_2', 'value of b'],
    ]);
  });

  it('answers a call to an unknown tool with the list of tools the agent has', async () => {
    const { tool } = calculator();
    const transport = new ScriptedTransport([
      reply.toolUse('multiply', { left: 2, right: 3 }),
      reply.text('I cannot multiply.'),
    ]);
    const result = await new Agent({ name: 'a', model, tools: [tool], transport }).run('2 * 3?');

    expect(resultsAt(result.messages, 2)[0]).toMatchObject({
      is_error: true,
      content: `Tool "multiply" does not exist; the tools available are 'add'.`,
    });
    expect(result.toolCalls[0]).toMatchObject({
      outcome: 'invalid',
      error: { error: 'unknown_tool', tool: 'multiply', available: ['add'] },
    });
  });

  it('tells the model only the tool and error class when a tool throws; the caller gets the error itself', async () => {
    const failure = new TypeError('card 4111-1111 declined by gateway secret-host');
    const charge = defineTool({
      name: 'charge_card',
      description: 'Charges.',
      input: { type: 'object', properties: {} },
      run: () => {
        throw failure;
      },
    });
    const events: AgentEvent[] = [];
    const transport = new ScriptedTransport([reply.toolUse('charge_card', {}), reply.text('The charge failed.')]);
    const result = await new Agent({ name: 'a', model, tools: [charge], transport }).run('charge', {
      onEvent: (e) => events.push(e),
    });

    expect(resultsAt(result.messages, 2)[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_s1_1',
      is_error: true,
      content: `Tool 'charge_card' failed with TypeError.`,
    });
    expect(JSON.stringify(transport.requests[1])).not.toContain('declined');
    expect(result.toolCalls[0]).toMatchObject({
      outcome: 'error',
      error: { error: 'tool_failed', tool: 'charge_card', errorClass: 'TypeError', cause: failure },
    });
    const finished = events.find((e) => e.type === 'tool_finished');
    expect(finished).toMatchObject({ call: { error: { cause: failure } } });
  });

  it('names the class of a custom error, and says what was thrown when it is not an Error', async () => {
    class PaymentDeclined extends Error {}
    const tools = [
      defineTool({
        name: 'pay',
        description: 'Pays.',
        input: { type: 'object', properties: {} },
        run: () => {
          throw new PaymentDeclined('no');
        },
      }),
      defineTool({
        name: 'odd',
        description: 'Odd.',
        input: { type: 'object', properties: {} },
        run: () => {
          throw 'a string';
        },
      }),
    ];
    const transport = new ScriptedTransport([
      reply.toolUses([
        { name: 'pay', input: {} },
        { name: 'odd', input: {} },
      ]),
      reply.text('.'),
    ]);
    const result = await new Agent({ name: 'a', model, tools, transport }).run('go');
    expect(resultsAt(result.messages, 2).map((r) => r.content)).toEqual([
      `Tool 'pay' failed with PaymentDeclined.`,
      `Tool 'odd' failed with a thrown string.`,
    ]);
  });

  it('renders JSON values, collects async iterables and passes content blocks through', async () => {
    async function* chunks() {
      yield 'first ';
      yield 'second';
    }
    const tools = [
      defineTool({
        name: 'json',
        description: 'J.',
        input: { type: 'object', properties: {} },
        run: () => ({ status: 'open', count: 2 }),
      }),
      defineTool({ name: 'stream', description: 'S.', input: { type: 'object', properties: {} }, run: () => chunks() }),
      defineTool({
        name: 'blocks',
        description: 'B.',
        input: { type: 'object', properties: {} },
        run: () => [{ type: 'text' as const, text: 'a block' }],
      }),
      defineTool({
        name: 'nothing',
        description: 'N.',
        input: { type: 'object', properties: {} },
        run: () => undefined,
      }),
    ];
    const transport = new ScriptedTransport([
      reply.toolUses(tools.map((t) => ({ name: t.name, input: {} }))),
      reply.text('.'),
    ]);
    const result = await new Agent({ name: 'a', model, tools, transport }).run('go');
    expect(resultsAt(result.messages, 2).map((r) => r.content)).toEqual([
      '{"status":"open","count":2}',
      'first second',
      [{ type: 'text', text: 'a block' }],
      '',
    ]);
  });

  it('withholds output past maxResultLength and tells the model to narrow its request', async () => {
    const dump = defineTool({
      name: 'dump_table',
      description: 'Dumps a table.',
      input: { type: 'object', properties: {} },
      maxResultLength: 10,
      run: () => 'x'.repeat(25),
    });
    const transport = new ScriptedTransport([reply.toolUse('dump_table', {}), reply.text('.')]);
    const result = await new Agent({ name: 'a', model, tools: [dump], transport }).run('dump');
    const content = resultsAt(result.messages, 2)[0]!.content as string;
    expect(content.startsWith(`${'x'.repeat(10)}\n\n[Output withheld`)).toBe(true);
    expect(content).toContain('Narrow the request');
    expect(content).not.toContain('x'.repeat(11));
    expect(result.toolCalls[0]!.withheld).toEqual({ length: 25, shown: 10 });
  });

  it('gives tools their tool_use id, the agent name and the run clock', async () => {
    const seen: unknown[] = [];
    const probe = defineTool({
      name: 'probe',
      description: 'P.',
      input: { type: 'object', properties: {} },
      run: (_args, ctx) => void seen.push([ctx.toolUseId, ctx.agent, ctx.now().toISOString(), ctx.signal.aborted]),
    });
    const transport = new ScriptedTransport([reply.toolUse('probe', {}, { id: 'toolu_fixed' }), reply.text('.')]);
    await new Agent({
      name: 'prober',
      model,
      tools: [probe],
      transport,
      clock: () => new Date('2026-01-02T03:04:05Z'),
    }).run('go');
    expect(seen).toEqual([['toolu_fixed', 'prober', '2026-01-02T03:04:05.000Z', false]]);
  });

  it.each([
    ['max_tokens', reply.maxTokens('The answer is'), 'max_tokens'],
    ['refusal', reply.refusal('I will not help with that.'), 'refusal'],
    ['stop_sequence', reply.text('Done', { stopReason: 'stop_sequence' }), 'stop_sequence'],
  ] as const)('stops on %s', async (_name, response, stopReason) => {
    const { tool, run } = calculator();
    const result = await new Agent({
      name: 'a',
      model,
      tools: [tool],
      transport: new ScriptedTransport([response]),
    }).run('go');
    expect(result.stopReason).toBe(stopReason);
    expect(run).not.toHaveBeenCalled();
  });

  it('stops with max_turns when the model still wants tools after maxTurns calls', async () => {
    const { tool, run } = calculator();
    const transport = new ScriptedTransport(() => reply.toolUse('add', { left: 1, right: 1 }));
    const result = await new Agent({ name: 'a', model, tools: [tool], transport, maxTurns: 3 }).run('loop');
    expect(result.stopReason).toBe('max_turns');
    expect(result.turns).toBe(3);
    expect(transport.requests).toHaveLength(3);
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('sends a paused turn back as it is, so the model can resume', async () => {
    const transport = new ScriptedTransport([
      { content: [{ type: 'text', text: 'Searching' }], stopReason: 'pause_turn' },
      reply.text('Found it.'),
    ]);
    const result = await new Agent({ name: 'a', model, transport }).run('search');
    expect(result.text).toBe('Found it.');
    expect(transport.requests[1]!.messages).toEqual([
      { role: 'user', content: 'search' },
      { role: 'assistant', content: [{ type: 'text', text: 'Searching' }] },
    ]);
  });

  it('sums usage over every model call', async () => {
    const { tool } = calculator();
    const transport = new ScriptedTransport([
      { ...reply.toolUse('add', { left: 1, right: 2 }), usage: { input_tokens: 100, output_tokens: 20 } },
      {
        id: 'msg_x',
        type: 'message',
        role: 'assistant',
        model,
        content: [{ type: 'text', text: '3' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 150, output_tokens: 5, cache_read_input_tokens: 90, cache_creation_input_tokens: 10 },
      },
    ]);
    const result = await new Agent({ name: 'a', model, tools: [tool], transport }).run('1+2');
    expect(result.usage).toEqual({
      ...emptyUsage(),
      inputTokens: 250,
      outputTokens: 25,
      cacheReadInputTokens: 90,
      cacheCreationInputTokens: 10,
    });
  });

  it('tells observers about turns, text and tool calls while the run goes', async () => {
    const { tool } = calculator();
    const seen: string[] = [];
    const transport = new ScriptedTransport([
      reply.toolUse('add', { left: 1, right: 2 }, { text: 'Adding' }),
      reply.text('3'),
    ]);
    const result = await new Agent({ name: 'a', model, tools: [tool], transport }).run('1+2', {
      onEvent: (e) => seen.push(e.type === 'stream' ? `stream:${e.event.type}` : e.type),
    });
    expect(seen).toEqual([
      'run_started',
      'turn_started',
      'stream:block_start',
      'stream:text_delta',
      'stream:block_stop',
      'stream:block_start',
      'stream:input_json_delta',
      'stream:block_stop',
      'model_responded',
      'tool_called',
      'tool_finished',
      'turn_started',
      'stream:block_start',
      'stream:text_delta',
      'stream:block_stop',
      'model_responded',
      'run_finished',
    ]);
    expect(result.events.map((e) => e.type)).toEqual(seen.filter((s) => !s.startsWith('stream')));
  });

  it('keeps running when an observer throws, and reports it as a process warning', async () => {
    const warning = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const result = await new Agent({ name: 'a', model, transport: new ScriptedTransport([reply.text('fine')]) }).run(
      'hi',
      {
        onEvent: () => {
          throw new Error('observer bug');
        },
      },
    );
    expect(result.text).toBe('fine');
    expect(warning).toHaveBeenCalledWith(
      expect.stringContaining('listener threw'),
      expect.objectContaining({ code: 'LEGATE_LISTENER_THREW' }),
    );
    warning.mockRestore();
  });

  it('continues an earlier conversation given as history', async () => {
    const transport = new ScriptedTransport([reply.text('Still 42.')]);
    const history = [
      { role: 'user' as const, content: 'What is 40 + 2?' },
      { role: 'assistant' as const, content: [{ type: 'text' as const, text: '42.' }] },
    ];
    const result = await new Agent({ name: 'a', model, transport }).run('Are you sure?', { history });
    expect(transport.requests[0]!.messages).toEqual([...history, { role: 'user', content: 'Are you sure?' }]);
    expect(result.messages).toHaveLength(4);
  });

  describe('cancellation', () => {
    it('stops a run promptly while a tool ignores the signal, and does not count it as a tool failure', async () => {
      const controller = new AbortController();
      const hang = defineTool({
        name: 'hang',
        description: 'Never returns.',
        input: { type: 'object', properties: {} },
        run: () => {
          controller.abort(new Error('cancelled by user'));
          return new Promise(() => undefined);
        },
      });
      const transport = new ScriptedTransport([reply.toolUse('hang', {}), reply.text('unreachable')]);
      const run = new Agent({ name: 'a', model, tools: [hang], transport }).run('go', { signal: controller.signal });
      await expect(run).rejects.toThrow('cancelled by user');
      expect(transport.requests).toHaveLength(1);
    });

    it('aborts the signal tools receive', async () => {
      const controller = new AbortController();
      let toolSignal: AbortSignal | undefined;
      const cooperative = defineTool({
        name: 'wait',
        description: 'Waits for the signal.',
        input: { type: 'object', properties: {} },
        run: (_args, ctx) => {
          toolSignal = ctx.signal;
          return new Promise((_resolve, reject) => {
            ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
            controller.abort(new Error('stop'));
          });
        },
      });
      const transport = new ScriptedTransport([reply.toolUse('wait', {}), reply.text('unreachable')]);
      await expect(
        new Agent({ name: 'a', model, tools: [cooperative], transport }).run('go', { signal: controller.signal }),
      ).rejects.toThrow('stop');
      expect(toolSignal?.aborted).toBe(true);
    });

    it('refuses to start with a signal that is already aborted', async () => {
      const transport = new ScriptedTransport([reply.text('never')]);
      await expect(
        new Agent({ name: 'a', model, transport }).run('go', { signal: AbortSignal.abort(new Error('too late')) }),
      ).rejects.toThrow('too late');
      expect(transport.requests).toHaveLength(0);
    });
  });

  it('refuses a transport answer that is not a Messages API response, saying what was wrong', async () => {
    const broken = {
      send: async () => ({
        type: 'message',
        role: 'assistant',
        id: 'x',
        model,
        content: [{ kind: 'text', text: 'hi' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 1, output_tokens: 1 },
      }),
    };
    const run = new Agent({ name: 'a', model, transport: broken as never }).run('hi');
    await expect(run).rejects.toThrow(ModelResponseError);
    await expect(new Agent({ name: 'a', model, transport: broken as never }).run('hi')).rejects.toThrow(
      `The transport answered with something that is not a Messages API response: 'content[0].type' should be ` +
        'a string naming the block type, but it was undefined.',
    );
  });

  it('refuses empty input', async () => {
    const agent = new Agent({ name: 'a', model, transport: new ScriptedTransport([]) });
    await expect(agent.run('')).rejects.toThrow("agent.run needs the user's input");
  });
});

describe('Agent construction', () => {
  const transport = new ScriptedTransport([]);

  it.each([
    [
      'no transport',
      { name: 'support', model },
      'transport',
      `Agent 'support': there is no transport, so nothing can answer the agent. Pass { transport: new ` +
        'AnthropicTransport() } for the live model, or a ScriptedTransport in tests.',
    ],
    ['no name', { model, transport }, 'name', 'An agent needs a name (a non-empty string), but it was undefined.'],
    [
      'no model',
      { name: 'support', transport },
      'model',
      `Agent 'support': 'model' must be a model id such as 'claude-sonnet-5-5', but it was undefined.`,
    ],
    [
      'a transport without send',
      { name: 'support', model, transport: {} },
      'transport',
      `Agent 'support': 'transport' must have a send(request) method, but it was the object {}.`,
    ],
    [
      'zero maxTurns',
      { name: 'support', model, transport, maxTurns: 0 },
      'maxTurns',
      `Agent 'support': 'maxTurns' must be a whole number of at least 1, but it was the number 0.`,
    ],
    [
      'a tool not made with defineTool',
      { name: 'support', model, transport, tools: [{ name: 'x' }] },
      'tools[0]',
      `Agent 'support': tools[0] is not a tool made with defineTool (it was the object {"name":"x"}); wrap its ` +
        'declaration in defineTool(...).',
    ],
  ])('refuses %s, saying what was expected and what arrived', (_case, options, option, message) => {
    expect(caught(() => new Agent(options as never), AgentConfigurationError)).toMatchObject({ option, message });
  });

  it('surfaces tool warnings on the agent and as process warnings, once each', () => {
    const warning = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const bare = defineTool({ name: 'bare', input: { type: 'object', properties: {} }, run: () => '' });
    const first = new Agent({ name: 'a', model, tools: [bare], transport });
    new Agent({ name: 'b', model, tools: [bare], transport });
    expect(first.warnings.map((w) => w.code)).toEqual(['missing_description']);
    expect(warning).toHaveBeenCalledTimes(1);
    expect(warning).toHaveBeenCalledWith(expect.stringContaining(`Tool 'bare' has no description`), {
      type: 'LegateWarning',
      code: 'LEGATE_MISSING_DESCRIPTION',
    });
    warning.mockRestore();
  });
});
