import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  AgentConfigurationError,
  ScriptedTransport,
  ToolDeclarationError,
  defineTool,
  reply,
  serverTool,
  type AgentOptions,
  type ModelResponse,
} from '../../src/index.js';
import { caught } from '../support/caught.js';

/** The request options of an agent: what each sends, and the values each refuses. */

const model = 'claude-sonnet-5-5';
const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a word up.',
  input: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
  run: ({ word }) => `${word}: a word`,
});
const webSearch = { type: 'web_search_20250305', name: 'web_search', max_uses: 3 };

async function firstRequest(options: Partial<AgentOptions>) {
  const transport = new ScriptedTransport([reply.text('Done.')]);
  await new Agent({ name: 'asker', model, transport, tools: [lookup], ...options }).run('Go.');
  return transport.requests[0]!;
}

function refused(options: Record<string, unknown>): AgentConfigurationError {
  const transport = new ScriptedTransport([]);
  return caught(
    () => new Agent({ name: 'asker', model, transport, tools: [lookup], ...options } as AgentOptions),
    AgentConfigurationError,
  );
}

describe('request options: what is sent', () => {
  it('sends server tools as given, after the defined tools', async () => {
    const request = await firstRequest({
      tools: [lookup, webSearch, serverTool({ type: 'web_fetch_20250910', name: 'web_fetch' })],
    });
    expect(request.tools).toEqual([
      lookup.definition(),
      { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
      { type: 'web_fetch_20250910', name: 'web_fetch' },
    ]);
  });

  it.each([
    [{ type: 'auto' }, { type: 'auto' }],
    [
      { type: 'any', disableParallelToolUse: true },
      { type: 'any', disable_parallel_tool_use: true },
    ],
    [
      { type: 'tool', name: 'lookup' },
      { type: 'tool', name: 'lookup' },
    ],
    [
      { type: 'tool', name: 'web_search', disableParallelToolUse: false },
      { type: 'tool', name: 'web_search', disable_parallel_tool_use: false },
    ],
    [{ type: 'none' }, { type: 'none' }],
  ] as const)('sends toolChoice %o as tool_choice %o', async (toolChoice, sent) => {
    const request = await firstRequest({ tools: [lookup, webSearch], toolChoice });
    expect(request.tool_choice).toEqual(sent);
  });

  it('sends stop sequences, thinking, metadata and container', async () => {
    const request = await firstRequest({
      stopSequences: ['END', '\n\nHuman:'],
      thinking: { budgetTokens: 2048 },
      metadata: { userId: 'u-3f9a' },
      container: 'container_011Caqgq9X3d68B2So2LZGmk',
    });
    expect(request).toMatchObject({
      stop_sequences: ['END', '\n\nHuman:'],
      thinking: { type: 'enabled', budget_tokens: 2048 },
      metadata: { user_id: 'u-3f9a' },
      container: 'container_011Caqgq9X3d68B2So2LZGmk',
    });
    expect((await firstRequest({ thinking: { type: 'adaptive' } })).thinking).toEqual({ type: 'adaptive' });
  });

  it('sends nothing it was not asked to', async () => {
    const request = await firstRequest({});
    expect(Object.keys(request).sort()).toEqual(['max_tokens', 'messages', 'model', 'tools']);
  });

  it("caches automatically with the request's top-level cache_control", async () => {
    const request = await firstRequest({ system: 'Be brief.', cacheControl: { ttl: '1h' } });
    expect(request.cache_control).toEqual({ type: 'ephemeral', ttl: '1h' });
    expect(request.system).toBe('Be brief.');
    expect(request.tools).toEqual([lookup.definition()]);
  });

  it('caches the prefix with a breakpoint on the system prompt and on the last tool', async () => {
    const request = await firstRequest({
      system: 'Be brief.',
      tools: [lookup, webSearch],
      cacheControl: { at: 'prefix' },
    });
    expect(request.cache_control).toBeUndefined();
    expect(request.system).toEqual([{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }]);
    expect(request.tools).toEqual([lookup.definition(), { ...webSearch, cache_control: { type: 'ephemeral' } }]);
    // The tool itself is untouched: the breakpoint is the request's.
    expect(webSearch).toEqual({ type: 'web_search_20250305', name: 'web_search', max_uses: 3 });
  });
});

describe('request options: bad values are refused when the agent is built', () => {
  it.each([
    [
      { toolChoice: 'auto' },
      'toolChoice',
      `'toolChoice' must be { type: 'auto' | 'any' | 'none' } or { type: 'tool', name }`,
    ],
    [
      { toolChoice: { type: 'tool', name: 'sarch' } },
      'toolChoice.name',
      `names the tool the string "sarch", which is not one of this agent's tools ('lookup')`,
    ],
    [
      { toolChoice: { type: 'any', disableParallel: true } },
      'toolChoice.disableParallel',
      `'disableParallel' is not a key of 'toolChoice' (did you mean 'disableParallelToolUse'?)`,
    ],
    [
      { toolChoice: { type: 'none', disableParallelToolUse: true } },
      'toolChoice.disableParallelToolUse',
      `is not a key of 'toolChoice'`,
    ],
    [
      { toolChoice: { type: 'auto', disableParallelToolUse: 'yes' } },
      'toolChoice.disableParallelToolUse',
      'must be true or false',
    ],
    [
      { stopSequences: 'END' },
      'stopSequences',
      `'stopSequences' must be a list of strings, but it was the string "END"`,
    ],
    [
      { stopSequences: ['END', ' '] },
      'stopSequences[1]',
      'stopSequences[1] must be a string with a non-blank character',
    ],
    [{ thinking: { budgetTokens: 0 } }, 'thinking.budgetTokens', 'must be a whole number of at least 1'],
    [
      { thinking: { budget_tokens: 2048 } },
      'thinking.budget_tokens',
      `'budget_tokens' is not a key of 'thinking' (did you mean 'budgetTokens'?)`,
    ],
    [{ thinking: { type: 'enabled' } }, 'thinking.type', `'thinking.type' can only be 'adaptive'`],
    [{ cacheControl: true }, 'cacheControl', `'cacheControl' must be { at?: 'auto' | 'prefix', ttl?: '5m' | '1h' }`],
    [
      { cacheControl: { ttl: '10m' } },
      'cacheControl.ttl',
      `'cacheControl.ttl' must be '5m' or '1h', but it was the string "10m"`,
    ],
    [{ cacheControl: { at: 'system' } }, 'cacheControl.at', `must be 'auto' or 'prefix'`],
    [
      { metadata: { user_id: 'u' } },
      'metadata.user_id',
      `'user_id' is not a key of 'metadata' (did you mean 'userId'?)`,
    ],
    [{ metadata: { userId: '' } }, 'metadata.userId', 'must be a non-empty string'],
    [{ container: { id: 'c' } }, 'container', `'container' must be the id of a code execution container (a string)`],
    [{ toolchoice: { type: 'auto' } }, 'toolchoice', `(did you mean 'toolChoice'?)`],
  ])('refuses %o at %s', (options, option, words) => {
    const error = refused(options);
    expect(error.option).toBe(option);
    expect(error.message).toContain(words);
    expect(error.message.startsWith("Agent 'asker': ")).toBe(true);
  });

  it('refuses tool entries that are not tools: a custom-typed definition, a server tool without a name', () => {
    const custom = refused({ tools: [{ type: 'custom', name: 'x', input_schema: { type: 'object' } }] });
    expect(custom.option).toBe('tools[0].type');
    expect(custom.message).toContain('declare it with defineTool');
    const nameless = refused({ tools: [lookup, { type: 'web_search_20250305' }] });
    expect(nameless.option).toBe('tools[1].name');
    expect(nameless.message).toContain(`server tool 'web_search_20250305' needs its 'name'`);
  });

  it('refuses a server tool that shares a name with a defined tool', () => {
    const transport = new ScriptedTransport([]);
    const error = caught(
      () =>
        new Agent({
          name: 'asker',
          model,
          transport,
          tools: [lookup, { type: 'web_search_20250305', name: 'lookup' }],
        }),
      ToolDeclarationError,
    );
    expect(error.code).toBe('duplicate_tool_name');
  });

  it('serverTool refuses a misspelt option and a definition that is not one', () => {
    expect(caught(() => serverTool(webSearch, { untrusetd: false } as never), ToolDeclarationError).code).toBe(
      'invalid_server_tool',
    );
    expect(caught(() => serverTool({ name: 'web_search' } as never), ToolDeclarationError).path).toBe('type');
  });

  it('refuses any value of an option that is not its shape (property)', () => {
    const shapes: Record<string, (v: unknown) => boolean> = {
      stopSequences: (v) => Array.isArray(v) && v.every((s) => typeof s === 'string' && s.trim() !== ''),
      container: (v) => typeof v === 'string' && v !== '',
      metadata: (v) =>
        typeof v === 'object' &&
        v !== null &&
        !Array.isArray(v) &&
        Object.keys(v).join() === 'userId' &&
        typeof (v as { userId: unknown }).userId === 'string' &&
        (v as { userId: string }).userId !== '',
    };
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(shapes)), fc.anything(), (option, value) => {
        fc.pre(value !== undefined && !shapes[option]!(value));
        expect(refused({ [option]: value }).option.startsWith(option)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('sends any list of stop sequences it accepts, as given (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.string({ minLength: 1 }).filter((s) => s.trim() !== ''),
          { maxLength: 4 },
        ),
        async (stops) => {
          expect((await firstRequest({ stopSequences: stops })).stop_sequences).toEqual(stops);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('the container a response names', () => {
  const capture = (name: string) =>
    JSON.parse(readFileSync(join('test/fixtures/api-captures', `${name}.json`), 'utf8')) as {
      request: Record<string, unknown>;
      response: { body: ModelResponse };
    };
  const getWeather = defineTool({
    name: 'get_weather',
    description: 'Lookup the weather for a given city.',
    input: { type: 'object', properties: { location: { type: 'string' }, units: { type: 'string' } } },
    run: () => '{"temperature": "20°C"}',
  });

  it('is sent back on every later request of the run, as the API requires for programmatic tool calling', async () => {
    const first = capture('anthropic-sdk-py--programmatic-tool-calling-1');
    const second = capture('anthropic-sdk-py--programmatic-tool-calling-2-container-sent-back');
    const transport = new ScriptedTransport([first.response.body, reply.text('Sunny.'), reply.text('Still sunny.')]);
    const agent = new Agent({ name: 'weather', model, transport, tools: [getWeather] });
    const result = await agent.run('What is the weather in SF, NY, and London in Celsius?');
    expect(transport.requests[0]!.container).toBeUndefined();
    // The capture's own next request carried the container the first response named.
    expect(transport.requests[1]!.container).toBe(second.request.container);
    await agent.run('And tomorrow?', { history: result.messages });
    expect(transport.requests[2]!.container).toBeUndefined(); // a new run starts without one
  });

  it('never replaces the container the agent set', async () => {
    const first = capture('anthropic-sdk-py--programmatic-tool-calling-1');
    const transport = new ScriptedTransport([first.response.body, reply.text('Sunny.')]);
    await new Agent({ name: 'weather', model, transport, tools: [getWeather], container: 'container_mine' }).run('Go.');
    expect(transport.requests.map((r) => r.container)).toEqual(['container_mine', 'container_mine']);
  });
});
