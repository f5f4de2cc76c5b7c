import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  Agent,
  OutputSchemaError,
  ScriptedTransport,
  StructuredOutputError,
  defineTool,
  reply,
  runTrajectory,
  type ScriptedReply,
  type Transport,
} from '../../src/index.js';
import { useTempDir } from '../support/tempDir.js';
import { prepareOutput } from '../../src/tools/output/prepareOutput.js';

const Weather = z.object({
  city: z.string(),
  sky: z.enum(['clear', 'cloudy', 'rain']),
  celsius: z.number(),
});

const lookup = defineTool({
  name: 'lookup_weather',
  description: 'Looks up the weather in a city.',
  input: z.object({ city: z.string() }),
  run: ({ city }) => `${city}: 14 degrees, cloudy`,
});

function agentWith(script: ScriptedReply[], extra: Partial<ConstructorParameters<typeof Agent>[0]> = {}) {
  const transport = new ScriptedTransport(script);
  const agent = new Agent({ name: 'forecaster', model: 'claude-sonnet-5-5', transport, tools: [lookup], ...extra });
  return { agent, transport };
}

describe('agent.run with output', () => {
  it('runs a tool loop first; every request asks for the format; only the final answer is output', async () => {
    const { agent, transport } = agentWith([
      reply.toolUse('lookup_weather', { city: 'Lyon' }),
      reply.text('{"city": "Lyon", "sky": "cloudy", "celsius": 14}'),
    ]);
    const result = await agent.run('Weather in Lyon?', { output: Weather });
    expect(result.output).toEqual({ city: 'Lyon', sky: 'cloudy', celsius: 14 });
    expect(result.toolCalls.map((call) => call.outcome)).toEqual(['ok']);
    const format = prepareOutput(Weather).format;
    expect(transport.requests.map((request) => request.output_config)).toEqual([{ format }, { format }]);
    expect(format.schema).toMatchObject({ additionalProperties: false, required: ['city', 'sky', 'celsius'] });
  });

  it('sends nothing about output and sets no output key without the option', async () => {
    const { agent, transport } = agentWith([reply.text('{"city": "Lyon"}')]);
    const result = await agent.run('Weather in Lyon?');
    expect(transport.requests[0]).not.toHaveProperty('output_config');
    expect(result).not.toHaveProperty('output');
  });

  it.each([
    ['max_tokens', reply.maxTokens('{"city": "Ly')],
    ['refusal', reply.refusal()],
    ['stop_sequence', reply.text('{"city": "Lyon", ', { stopReason: 'stop_sequence' })],
  ] as const)('has no output after %s: the stop reason says why, nothing is thrown', async (stopReason, answer) => {
    const { agent } = agentWith([answer]);
    const result = await agent.run('Weather in Lyon?', { output: Weather });
    expect(result.stopReason).toBe(stopReason);
    expect(result).toHaveProperty('output', undefined);
  });

  it('has no output when the turns run out in a tool loop', async () => {
    const { agent } = agentWith([reply.toolUse('lookup_weather', { city: 'Lyon' })], { maxTurns: 1 });
    const result = await agent.run('Weather in Lyon?', { output: Weather });
    expect(result.stopReason).toBe('max_turns');
    expect(result.output).toBeUndefined();
  });

  it('refuses an answer that is not JSON, or that the schema refuses, with the path and the finished run', async () => {
    const notJson = await agentWith([reply.text('It is cloudy in Lyon.')])
      .agent.run('Weather in Lyon?', { output: Weather })
      .catch((e: unknown) => e);
    expect(notJson).toBeInstanceOf(StructuredOutputError);
    expect(notJson).toMatchObject({ code: 'invalid_output', reason: 'not_parsable', path: [] });
    expect((notJson as Error).message).toContain('must be a JSON object');

    const offList = await agentWith([reply.text('{"city": "Lyon", "sky": "fog", "celsius": 9}')])
      .agent.run('Weather in Lyon?', { output: Weather })
      .catch((e: unknown) => e);
    expect(offList).toMatchObject({ reason: 'not_a_known_value', path: ['sky'] });
    expect((offList as Error).message).toMatch(/at sky must be .*clear.*but the value was the string "fog"/);
    expect((offList as StructuredOutputError).result.stopReason).toBe('end_turn');

    const missing = await agentWith([reply.text('{"city": "Lyon", "sky": "rain"}')])
      .agent.run('Weather in Lyon?', { output: Weather })
      .catch((e: unknown) => e);
    expect(missing).toMatchObject({ reason: 'required', path: ['celsius'] });
  });

  it('applies zod transforms and defaults to the answer, as it does to a tool input', async () => {
    const Shouted = z.object({
      city: z.string().transform((city) => city.toUpperCase()),
      unit: z.string().default('C'),
    });
    const result = await agentWith([reply.text('{"city": "Lyon"}')]).agent.run('Weather?', { output: Shouted });
    expect(result.output).toEqual({ city: 'LYON', unit: 'C' });
  });

  it('takes a JSON Schema literal and types the output from it', async () => {
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, celsius: { type: 'number' } },
      required: ['city', 'celsius'],
    } as const;
    const result = await agentWith([reply.text('{"city": "Lyon", "celsius": 14}')]).agent.run('Weather?', {
      output: schema,
    });
    const celsius: number | undefined = result.output?.celsius;
    // @ts-expect-error: the JSON Schema declares no `sky`.
    expect(result.output?.sky).toBeUndefined();
    expect(celsius).toBe(14);
  });

  it('computes the output when a suspended run is resumed with it', async () => {
    const approve = defineTool({
      name: 'lookup_weather',
      description: 'Looks up the weather in a city.',
      input: z.object({ city: z.string() }),
      privileged: true,
      run: () => '14 degrees',
    });
    const { agent } = agentWith(
      [
        reply.toolUse('lookup_weather', { city: 'Lyon' }),
        reply.text('{"city": "Lyon", "sky": "clear", "celsius": 14}'),
      ],
      { tools: [approve], approvalRequired: () => true },
    );
    const suspended = await agent.run('Weather in Lyon?', { output: Weather });
    expect(suspended.stopReason).toBe('suspended');
    expect(suspended.output).toBeUndefined();
    const result = await agent.resume(suspended.suspension!, { approve: true, output: Weather });
    expect(result.output).toEqual({ city: 'Lyon', sky: 'clear', celsius: 14 });
  });
});

describe('a recorded run whose answer the schema refuses', () => {
  const tempDir = useTempDir();

  it('is written down, and its replay refuses the recorded answer the same way', async () => {
    const file = join(tempDir(), 'fog.yaml');
    const agent = (transport: Transport) => new Agent({ name: 'forecaster', model: 'claude-sonnet-5-5', transport });
    const fog = reply.text('{"city": "Lyon", "sky": "fog", "celsius": 9}');
    const recorded = await runTrajectory({
      file,
      agent,
      input: 'Weather in Lyon?',
      output: Weather,
      mode: 'record',
      transport: () => new ScriptedTransport([fog]),
      report: false,
    }).catch((e: unknown) => e);
    expect(recorded).toBeInstanceOf(StructuredOutputError);
    expect(existsSync(file)).toBe(true);
    const replayed = await runTrajectory({ file, agent, output: Weather, mode: 'replay' }).catch((e: unknown) => e);
    expect(replayed).toBeInstanceOf(StructuredOutputError);
    expect(replayed).toMatchObject({ path: ['sky'], reason: 'not_a_known_value' });
  });
});

describe('output schemas the API cannot be asked for', () => {
  const refused = async (output: unknown) => {
    const { agent, transport } = agentWith([reply.text('{}')]);
    const error = await agent.run('Hi', { output: output as never }).catch((e: unknown) => e);
    expect(transport.requests).toHaveLength(0); // refused before any model call
    expect(error).toBeInstanceOf(OutputSchemaError);
    return error as OutputSchemaError;
  };

  it('refuses a map, a value without a type and an open object, naming each place', async () => {
    const error = await refused(
      z.object({ scores: z.record(z.string(), z.number()), anything: z.unknown(), loose: z.looseObject({}) }),
    );
    expect(error.code).toBe('invalid_output_schema');
    expect(error.problems.map((p) => p.path)).toEqual([
      'output.properties.scores',
      'output.properties.anything',
      'output.properties.loose',
    ]);
    expect(error.message).toContain('additionalProperties: false');
  });

  it('refuses an object without properties, a root that is not an object, a recursive schema', async () => {
    expect((await refused({ type: 'object', properties: { meta: { type: 'object' } } })).problems[0]).toMatchObject({
      path: 'output.properties.meta',
    });
    expect((await refused({ type: 'array', items: { type: 'string' } })).message).toContain(
      'an output schema must be an object schema',
    );
    const tree = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/Node' } },
      required: ['root'],
      $defs: {
        Node: {
          type: 'object',
          properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
          required: ['label', 'children'],
        },
      },
    };
    expect((await refused(tree)).problems).toEqual([expect.objectContaining({ path: 'output.$defs.Node' })]);
    expect((await refused('a schema')).message).toContain("'output' must be a zod object schema or a JSON Schema");
  });

  it('refuses a schema legate itself cannot check, as a tool input would be', async () => {
    const error = await refused({ type: 'object', properties: { code: { type: 'string', pattern: '^(a)\\1$' } } });
    expect(error.problems[0]).toMatchObject({ code: 'unsupported_pattern', path: 'output.properties.code.pattern' });
  });
});

describe('the strict schema sent', () => {
  it('moves what the API does not enforce into the description, and keeps checking it on the answer', () => {
    const prepared = prepareOutput({
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Who.', minLength: 2, format: 'hostname' },
        when: { type: 'string', format: 'date' },
        tags: { type: 'array', items: { type: 'string' }, minItems: 2, uniqueItems: true },
        kind: { oneOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }] },
      },
      required: ['name'],
    });
    expect(prepared.format.schema).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Who.\n\n{minLength: 2}', format: 'hostname' },
        when: { type: 'string', format: 'date' },
        tags: { type: 'array', items: { type: 'string' }, description: '{minItems: 2, uniqueItems: true}' },
        kind: { anyOf: [{ type: 'integer', description: '{minimum: 1}' }, { type: 'null' }] },
      },
      additionalProperties: false,
      required: ['name'],
    });
    expect(prepared.check({ name: 'x' })).toMatchObject({ code: 'too_short', path: ['name'] });
    expect(prepared.check({ name: 'xy', tags: ['a', 'a'] })).toMatchObject({ code: 'duplicate_item' });
  });

  it("sends a $ref into another part of the document (an OpenAPI component) as a definition of the API's", () => {
    const prepared = prepareOutput({
      type: 'object',
      properties: { pet: { $ref: '#/components/schemas/Pet' } },
      components: { schemas: { Pet: { type: 'object', properties: { name: { type: 'string' } } } } },
    });
    expect(prepared.format.schema).toEqual({
      type: 'object',
      properties: { pet: { $ref: '#/$defs/Pet' } },
      additionalProperties: false,
      $defs: { Pet: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false } },
      description: expect.stringContaining('components'),
    });
  });
});
