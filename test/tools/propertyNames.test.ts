import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { Agent, type JsonSchema, ScriptedTransport, ToolDeclarationError, defineTool, reply } from '../../src/index.js';
import { caught } from '../support/caught.js';
import { propertyKeyRefusal } from '../support/messagesApiRules.js';

// The Messages API refuses a whole request whose tool has a top-level property name outside
// ^[a-zA-Z0-9_.-]{1,64}$ (HTTP 400, invalid_request_error). A scripted test and its replay never meet that
// rule: defineTool holds every tool to it, so what passes here passes live (docs/tools.md, 'Property names').

const refusal = (properties: Record<string, JsonSchema>) =>
  caught(
    () => defineTool({ name: 'list', description: 'Lists.', input: { type: 'object', properties }, run: () => 'ok' }),
    ToolDeclarationError,
  );

const LONG = 'a'.repeat(65);

describe('defineTool and the API rule for property names', () => {
  it.each([
    // Twilio's List Message filter (twilio-oai, spec/json/twilio_api_v2010.json, GET .../Messages.json).
    ['DateSent<', 'DateSent_lt'],
    // Microsoft Graph's OData parameter, as Composio's OneDrive tools had it (ComposioHQ/composio#3500).
    ['$filter', 'filter'],
    // A name written for people: a document class's field (aws-solutions-library-samples/...#709).
    ['a b', 'a_b'],
    // A form-style array parameter (erikmaday/unusual-whales-mcp#57: 'rule_name[]').
    ['q[]', 'q'],
    [LONG, 'a'.repeat(64)],
  ])('refuses %j at definition with invalid_property_name, its path, the rule and a safe name', (key, safe) => {
    const error = refusal({ [key]: { type: 'string' } });
    expect(error.code).toBe('invalid_property_name');
    expect(error.tool).toBe('list');
    expect(error.path).toBe(`input.properties.${key}`);
    expect(error.message).toContain('^[a-zA-Z0-9_.-]{1,64}$');
    expect(error.message).toContain(`e.g. to '${safe}'`);
    expect(error.message).toContain('renameUnsafeProperties: true');
  });

  it('names every refused property in one error, each with a suggestion told apart from the names there', () => {
    const error = refusal({ 'DateSent<': {}, 'DateSent>': {}, DateSent_lt: {}, q: {}, 'q[]': {} });
    expect(error.problems.map((problem) => [problem.code, problem.path])).toEqual([
      ['invalid_property_name', 'input.properties.DateSent<'],
      ['invalid_property_name', 'input.properties.DateSent>'],
      ['invalid_property_name', 'input.properties.q[]'],
    ]);
    expect(error.problems.map((problem) => /e\.g\. to '([^']+)'/.exec(problem.problem)?.[1])).toEqual([
      'DateSent_lt_2',
      'DateSent_gt',
      'q_2',
    ]);
  });

  it('refuses such a name in a zod object too', () => {
    const error = caught(
      () => defineTool({ name: 'zod', description: 'Zod.', input: z.object({ 'a b': z.string() }), run: () => 'ok' }),
      ToolDeclarationError,
    );
    expect([error.code, error.path]).toEqual(['invalid_property_name', 'input.properties.a b']);
  });

  it('accepts names the rule allows, up to 64 characters, dots and dashes included', () => {
    const tool = defineTool({
      name: 'ok',
      description: 'Fine names.',
      input: { type: 'object', properties: { 'a.b-c_D9': { type: 'string' }, ['x'.repeat(64)]: { type: 'string' } } },
      run: () => 'ok',
    });
    expect(Object.keys(tool.inputSchema.properties as object)).toEqual(['a.b-c_D9', 'x'.repeat(64)]);
    expect(tool.wireNames).toBeUndefined();
  });

  it('accepts nested names the rule would not allow at the top level, as the API does', () => {
    // The API checks custom.input_schema.properties only; nested keys reach it (docs/tools.md, 'Property names').
    const tool = defineTool({
      name: 'nested',
      description: 'Nested odd names.',
      input: {
        type: 'object',
        properties: {
          filter: { type: 'object', properties: { 'name[eq]': { type: 'string' }, [LONG]: { type: 'string' } } },
          rows: { type: 'array', items: { type: 'object', properties: { 'Account Number': { type: 'string' } } } },
          ref: { $ref: '#/$defs/Odd' },
        },
        $defs: { Odd: { type: 'object', properties: { $top: { type: 'integer' } } } },
      },
      run: () => 'ok',
    });
    expect(tool.wireNames).toBeUndefined();
    expect(tool.bind({ filter: { 'name[eq]': 'x' }, rows: [{ 'Account Number': '1' }], ref: { $top: 2 } }).ok).toBe(
      true,
    );
  });

  it('holds the schema the model is shown to the rule: a name merged in from allOf is refused too', () => {
    const error = caught(
      () =>
        defineTool({
          name: 'merged',
          description: 'Merged.',
          input: { type: 'object', allOf: [{ properties: { 'a b': { type: 'string' } } }] },
          run: () => 'ok',
        }),
      ToolDeclarationError,
    );
    expect([error.code, error.path]).toEqual(['invalid_property_name', 'input.properties.a b']);
  });
});

describe('renameUnsafeProperties: safe names for the model, the declared names for run', () => {
  const received: unknown[] = [];
  // Defined inside each test, where its schema is compiled.
  const listMessages = () =>
    defineTool({
      name: 'list_messages',
      description: 'Lists messages.',
      input: {
        type: 'object',
        properties: {
          To: { type: 'string' },
          'DateSent<': { type: 'string', description: 'Sent on or before.' },
          'DateSent>': { type: 'string' },
          'tags[]': { type: 'array', items: { type: 'string' } },
        },
        required: ['DateSent<', 'To'],
        dependentRequired: { 'DateSent>': ['DateSent<'] },
        if: { properties: { 'tags[]': { minItems: 1 } }, required: ['tags[]'] },
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword.
        then: { required: ['DateSent>'] },
      },
      renameUnsafeProperties: true,
      run: (args) => {
        received.push(args);
        return 'ok';
      },
    });

  it('shows the model safe names, with required, dependentRequired and conditions kept in step', () => {
    const messages = listMessages();
    expect(messages.inputSchema).toEqual({
      type: 'object',
      properties: {
        To: { type: 'string' },
        DateSent_lt: { type: 'string', description: 'Sent on or before.' },
        DateSent_gt: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['DateSent_lt', 'To'],
      dependentRequired: { DateSent_gt: ['DateSent_lt'] },
      if: { properties: { tags: { minItems: 1 } }, required: ['tags'] },
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword.
      then: { required: ['DateSent_gt'] },
      additionalProperties: false,
    });
    expect(messages.wireNames).toEqual({ DateSent_lt: 'DateSent<', DateSent_gt: 'DateSent>', tags: 'tags[]' });
    expect(propertyKeyRefusal({ tools: [messages.definition()] })).toBeUndefined();
  });

  it('binds the model’s call under the safe names, and runs with the declared names', async () => {
    const messages = listMessages();
    received.length = 0;
    const transport = new ScriptedTransport([
      reply.toolUse('list_messages', { To: '+15558881111', DateSent_lt: '2008-01-02', tags: ['x'] }),
      reply.toolUse('list_messages', { To: '+1', DateSent_lt: '2008-01-02', tags: ['x'], DateSent_gt: '2008-01-01' }),
      reply.text('done'),
    ]);
    const agent = new Agent({ name: 'a', model: 'claude-haiku-5-5', tools: [messages], transport });
    const result = await agent.run('List them.');
    // The first call misses DateSent_gt, which `then` requires when tags are given: refused in the model's names.
    expect(result.toolCalls.map((call) => call.outcome)).toEqual(['invalid', 'ok']);
    expect(result.toolCalls[0]!.output).toContain('DateSent_gt');
    expect(received).toEqual([{ To: '+1', 'DateSent<': '2008-01-02', 'tags[]': ['x'], 'DateSent>': '2008-01-01' }]);
    // What is recorded of the call is what the model sent.
    expect(result.toolCalls[1]!.input).toEqual({
      To: '+1',
      DateSent_lt: '2008-01-02',
      tags: ['x'],
      DateSent_gt: '2008-01-01',
    });
  });

  it('points a $ref through a renamed property to its new name', () => {
    const tool = defineTool({
      name: 'refs',
      description: 'Refers.',
      input: {
        type: 'object',
        properties: {
          'a b': { type: 'object', properties: { n: { type: 'integer' } } },
          c: { $ref: '#/properties/a b' },
        },
      },
      renameUnsafeProperties: true,
      run: () => 'ok',
    });
    expect((tool.inputSchema.properties as Record<string, unknown>).c).toEqual({ $ref: '#/properties/a_b' });
    expect(tool.bind({ c: { n: 'x' } }).ok).toBe(false);
    expect(tool.bind({ a_b: { n: 1 }, c: { n: 2 } }).ok).toBe(true);
  });

  it('answers a call naming one argument twice (an open input) with an error result the model can act on', async () => {
    const open = defineTool({
      name: 'open',
      description: 'Open.',
      input: { type: 'object', properties: { 'q[]': { type: 'string' } }, additionalProperties: true },
      renameUnsafeProperties: true,
      run: () => 'ran',
    });
    const transport = new ScriptedTransport([reply.toolUse('open', { q: 'a', 'q[]': 'b' }), reply.text('done')]);
    const result = await new Agent({ name: 'a', model: 'claude-haiku-5-5', tools: [open], transport }).run('Go.');
    expect(result.toolCalls[0]).toMatchObject({ outcome: 'error' });
    expect(result.toolCalls[0]!.output).toBe(
      "The arguments 'q' and 'q[]' are one argument, shown to you as 'q'; give it once, as 'q'.",
    );
  });

  it('refuses a rule on the input’s property names beside a renamed name, and the option on a zod input', () => {
    const tested = caught(
      () =>
        defineTool({
          name: 'tested',
          description: 'Tests names.',
          input: { type: 'object', properties: { 'a b': {} }, propertyNames: { maxLength: 3 } },
          renameUnsafeProperties: true,
          run: () => 'ok',
        }),
      ToolDeclarationError,
    );
    expect([tested.code, tested.path]).toEqual(['unsupported_schema', 'input.propertyNames']);
    const zod = caught(
      () =>
        defineTool({
          name: 'zod',
          description: 'Zod.',
          input: z.object({ a: z.string() }),
          renameUnsafeProperties: true,
          run: () => 'ok',
        }),
      ToolDeclarationError,
    );
    expect([zod.code, zod.path]).toEqual(['invalid_option', 'renameUnsafeProperties']);
  });
});
