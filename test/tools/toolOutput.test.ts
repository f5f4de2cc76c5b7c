import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  Agent,
  ScriptedTransport,
  ToolDeclarationError,
  ToolOutputError,
  defineTool,
  reply,
  toolError,
  type ToolContext,
} from '../../src/index.js';

const context: ToolContext = {
  toolUseId: 'toolu_1',
  agent: 'test',
  signal: new AbortController().signal,
  now: () => new Date(0),
};

const forecastSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, celsius: { type: 'number', minimum: -90, maximum: 60 } },
  required: ['city', 'celsius'],
} as const;

/** Calls a tool's run as the runtime does, as a promise. */
function call(tool: { run(args: object, context: ToolContext): unknown }): Promise<unknown> {
  return Promise.resolve().then(() => tool.run({}, context));
}

function forecastTool(result: unknown) {
  return defineTool({
    name: 'forecast',
    description: 'Tomorrow in a city.',
    input: { type: 'object', properties: {} },
    output: forecastSchema,
    run: () => result as never,
  });
}

describe('a tool with an output schema', () => {
  it('publishes the schema in legate normal form, beside the input schema', () => {
    const tool = forecastTool({ city: 'Oslo', celsius: 3 });
    expect(tool.outputSchema).toEqual({ ...forecastSchema, additionalProperties: false });
    expect(tool.definition()).not.toHaveProperty('output_schema');
  });

  it("types run's result by the output schema", () => {
    const output = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } as const;
    const input = { type: 'object', properties: {} } as const;
    defineTool({ name: 'typed', description: 'd', input, output, run: () => ({ n: 1 }) });
    defineTool({ name: 'typed', description: 'd', input, output, run: () => toolError('no') });
    // @ts-expect-error: a result the schema does not describe does not compile
    defineTool({ name: 'typed', description: 'd', input, output, run: () => ({ n: 'one' }) });
    defineTool({ name: 'untyped', description: 'd', input, run: () => 'any output' });
  });

  it('a tool without one has no output schema', () => {
    const tool = defineTool({
      name: 'plain',
      description: 'd',
      input: { type: 'object', properties: {} },
      run: () => 'x',
    });
    expect(tool.outputSchema).toBeUndefined();
  });

  it('returns a matching result as it is', async () => {
    await expect(call(forecastTool({ city: 'Oslo', celsius: 3 }))).resolves.toEqual({
      city: 'Oslo',
      celsius: 3,
    });
  });

  it('refuses a result that does not match, naming the tool and the path', async () => {
    const failing = call(forecastTool({ city: 'Oslo', celsius: 'three' }));
    await expect(failing).rejects.toBeInstanceOf(ToolOutputError);
    const error = (await failing.catch((e: unknown) => e)) as ToolOutputError;
    expect(error.code).toBe('invalid_tool_output');
    expect(error.tool).toBe('forecast');
    expect(error.path).toEqual(['celsius']);
    expect(error.reason).toBe('invalid_type');
    expect(error.message).toMatch(/^Tool 'forecast' returned a result that does not match its output schema: /);
    expect(error.message).toContain('the result at celsius must be');
  });

  it('refuses text: the value itself is returned, not its JSON', async () => {
    const error = await call(forecastTool(JSON.stringify({ city: 'Oslo', celsius: 3 }))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolOutputError);
    expect((error as ToolOutputError).message).toContain('returned text');
  });

  it('passes an error result (toolError) unchecked', async () => {
    const result = await call(forecastTool(toolError('No forecast for Atlantis.')));
    expect(result).toEqual(toolError('No forecast for Atlantis.'));
  });

  it("checks a zod schema's own rules, and keeps the value run returned", async () => {
    const tool = defineTool({
      name: 'count',
      description: 'Counts.',
      input: z.object({}),
      output: z.object({ n: z.number().refine((n) => n % 2 === 0, 'must be even') }),
      run: () => ({ n: 3 }),
    });
    const error = (await call(tool).catch((e: unknown) => e)) as ToolOutputError;
    expect(error).toBeInstanceOf(ToolOutputError);
    expect(error.message).toContain('must be even');
  });

  it('collects an async iterable before checking it', async () => {
    const tool = defineTool({
      name: 'stream',
      description: 'Streams.',
      input: { type: 'object', properties: {} },
      output: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      run: async function* () {
        yield { n: 1 };
      },
    });
    // Collected as a list of items, which the object schema refuses: the check sees what the model would.
    await expect(call(tool)).rejects.toBeInstanceOf(ToolOutputError);
  });

  it('refuses a bad output schema when the tool is defined, at an output path', () => {
    const define = () =>
      defineTool({
        name: 'bad',
        description: 'd',
        input: { type: 'object', properties: {} },
        output: { type: 'object', properties: { a: { type: 'nonsense' } } } as never,
        run: () => ({}),
      });
    expect(define).toThrow(ToolDeclarationError);
    try {
      define();
    } catch (error) {
      expect((error as ToolDeclarationError).path).toMatch(/^output\.properties\.a/);
      expect((error as ToolDeclarationError).message).toMatch(/^Tool 'bad' has an output schema legate cannot use/);
    }
    expect(() =>
      defineTool({
        name: 'bad',
        description: 'd',
        input: { type: 'object', properties: {} },
        output: 42 as never,
        run: () => ({}),
      }),
    ).toThrow(/'output' must be a zod object schema or a JSON Schema object/);
  });

  it('in an agent run, a mismatch is a tool failure: the model learns the class only, caller the path', async () => {
    const agent = new Agent({
      name: 'desk',
      model: 'claude-sonnet-5-5',
      tools: [forecastTool({ city: 'Oslo', celsius: 'SECRET-123' })],
      transport: new ScriptedTransport([reply.toolUse('forecast', {}, { id: 'toolu_1' }), reply.text('Done.')]),
    });
    const result = await agent.run('Weather?');
    const call = result.toolCalls[0]!;
    expect(call.outcome).toBe('error');
    expect(call.output).toBe("Tool 'forecast' failed with ToolOutputError.");
    const error = call.error as { errorClass: string; cause: unknown };
    expect(error.errorClass).toBe('ToolOutputError');
    expect((error.cause as ToolOutputError).path).toEqual(['celsius']);
  });

  it('property: any result is accepted exactly when the schema check accepts it, and never altered', async () => {
    const results = fc.oneof(
      fc.record({ city: fc.string(), celsius: fc.double({ min: -90, max: 60, noNaN: true }) }),
      fc.record({ city: fc.anything(), celsius: fc.anything() }, { requiredKeys: [] }),
      fc.anything(),
    );
    await fc.assert(
      fc.asyncProperty(results, async (value) => {
        const tool = forecastTool(value);
        const matches =
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.keys(value).every((key) => key === 'city' || key === 'celsius') &&
          typeof (value as { city?: unknown }).city === 'string' &&
          typeof (value as { celsius?: unknown }).celsius === 'number' &&
          Number.isFinite((value as { celsius: number }).celsius) &&
          (value as { celsius: number }).celsius >= -90 &&
          (value as { celsius: number }).celsius <= 60;
        const outcome = await call(tool).then(
          (returned) => ({ returned }),
          (error: unknown) => ({ error }),
        );
        if (matches) expect(outcome).toEqual({ returned: value });
        else expect((outcome as { error: unknown }).error).toBeInstanceOf(ToolOutputError);
      }),
    );
  });
});

describe('docs/tools.md, a declared result', () => {
  it('quotes the ToolOutputError a mismatch gives', async () => {
    const tool = defineTool({
      name: 'forecast',
      description: "Tomorrow's forecast for a city.",
      input: z.object({ city: z.string() }),
      output: z.object({ city: z.string(), celsius: z.number() }),
      run: () => ({ city: 'Oslo', celsius: 'warm' }) as never,
    });
    const error = (await call(tool).catch((e: unknown) => e)) as ToolOutputError;
    const flat = readFileSync('docs/tools.md', 'utf8').replace(/\s*\n\s*/g, ' ');
    const quoted = error.message.slice(0, error.message.indexOf('. Fix the tool') + 1);
    expect(flat).toContain(`\`${quoted} ...\``);
  });
});
