import * as z from 'zod';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { Agent, ScriptedTransport, ToolDeclarationError, defineTool, type JsonObjectSchema } from '../../src/index.js';
import { caught } from '../support/caught.js';

const noop = () => 'ok';
const emptyInput = { type: 'object', properties: {} } as const;

const declarationError = (declare: () => unknown) => caught(declare, ToolDeclarationError);

describe('defineTool', () => {
  it('projects the tool for the API: name, description and the schema the model sees', () => {
    const tool = defineTool({
      name: 'get_weather',
      description: 'Current weather for a city.',
      input: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { city: { type: 'string', description: 'The city.' } },
        required: ['city'],
      },
      run: noop,
    });
    expect(tool.definition()).toEqual({
      name: 'get_weather',
      description: 'Current weather for a city.',
      input_schema: {
        type: 'object',
        properties: { city: { type: 'string', description: 'The city.' } },
        required: ['city'],
        additionalProperties: false,
      },
    });
  });

  it('moves a format JSON Schema does not define into the description', () => {
    const tool = defineTool({
      name: 'debit',
      description: 'Debits an account.',
      input: {
        type: 'object',
        properties: {
          iban: {
            type: 'string',
            format: 'iban',
            description: 'The account to debit.',
            pattern: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$',
          },
        },
      },
      run: noop,
    });
    expect(tool.inputSchema.properties).toEqual({
      iban: {
        type: 'string',
        description: 'The account to debit.\n\nFormat: iban.',
        pattern: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$',
      },
    });
  });

  it('declares flags now, for the guards to enforce', () => {
    const tool = defineTool({
      name: 'pay',
      description: 'Pays.',
      input: emptyInput,
      run: noop,
      privileged: true,
      policy: 'payments',
      compensatedBy: 'refund',
      maxResultLength: 100,
    });
    expect(tool).toMatchObject({
      privileged: true,
      untrusted: false,
      policy: 'payments',
      compensatedBy: 'refund',
      maxResultLength: 100,
    });
  });

  describe('annotations', () => {
    it('lets idempotent follow readOnly, and projects under the MCP hint names', () => {
      const read = defineTool({
        name: 'list',
        description: 'Lists.',
        input: emptyInput,
        run: noop,
        annotations: { title: 'List tickets', readOnly: true },
      });
      expect(read.mcpAnnotations()).toEqual({
        title: 'List tickets',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      });
    });

    it('assumes a write is destructive and not idempotent unless it says otherwise', () => {
      const write = defineTool({ name: 'delete', description: 'Deletes.', input: emptyInput, run: noop });
      expect(write.mcpAnnotations()).toEqual({
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
      });
      const put = defineTool({
        name: 'put',
        description: 'Puts.',
        input: emptyInput,
        run: noop,
        annotations: { destructive: false, idempotent: true, openWorld: false },
      });
      expect(put.annotations).toEqual({ readOnly: false, destructive: false, idempotent: true, openWorld: false });
    });

    it('says whether the tool declared annotations, or holds MCP defaults', () => {
      const declared = (annotations?: object) =>
        defineTool({ name: 'act', description: 'Acts.', input: emptyInput, run: noop, annotations }).annotated;
      expect(declared()).toBe(false);
      expect(declared({})).toBe(false);
      expect(declared({ readOnly: undefined })).toBe(false);
      expect(declared({ readOnly: false })).toBe(true);
      expect(declared({ title: 'Act' })).toBe(true);
      expect(declared({ openWorld: true })).toBe(true);
    });
  });

  it('warns, without failing, about a tool with no description', () => {
    const tool = defineTool({ name: 'mystery', input: emptyInput, run: noop });
    expect(tool.warnings).toEqual([
      {
        code: 'missing_description',
        tool: 'mystery',
        path: 'description',
        message: expect.stringContaining(`Tool 'mystery' has no description`),
      },
    ]);
    expect(tool.definition()).not.toHaveProperty('description');
  });

  it.each([
    ['a name the API refuses', { name: 'get weather', input: emptyInput, run: noop }, 'invalid_tool_name', 'name'],
    ['an empty name', { name: '', input: emptyInput, run: noop }, 'invalid_tool_name', 'name'],
    [
      'a name over 128 characters',
      { name: 'x'.repeat(129), input: emptyInput, run: noop },
      'invalid_tool_name',
      'name',
    ],
    ['no run function', { name: 't', input: emptyInput }, 'missing_run', 'run'],
    [
      'a negative maxResultLength',
      { name: 't', input: emptyInput, run: noop, maxResultLength: -1 },
      'negative_max_result_length',
      'maxResultLength',
    ],
    [
      'an input that is not an object schema',
      { name: 't', input: { type: 'string' }, run: noop },
      'invalid_schema',
      'input',
    ],
    [
      'unevaluatedProperties, which the binder does not check',
      { name: 't', input: { type: 'object', properties: {}, unevaluatedProperties: false }, run: noop },
      'unsupported_schema',
      'input.unevaluatedProperties',
    ],
    [
      'a $ref to nothing',
      { name: 't', input: { type: 'object', properties: { a: { $ref: '#/$defs/A' } } }, run: noop },
      'invalid_schema',
      'input.properties.a.$ref',
    ],
    [
      'a $ref to another document',
      { name: 't', input: { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } }, run: noop },
      'unsupported_schema',
      'input.properties.a.$ref',
    ],
    [
      'dependentSchemas',
      { name: 't', input: { type: 'object', properties: { a: { type: 'object', dependentSchemas: {} } } }, run: noop },
      'unsupported_schema',
      'input.properties.a.dependentSchemas',
    ],
    [
      'an $id below the root',
      { name: 't', input: { type: 'object', properties: { a: { $id: 'a', type: 'string' } } }, run: noop },
      'unsupported_schema',
      'input.properties.a.$id',
    ],
    [
      'a type that is not a JSON type',
      { name: 't', input: { type: 'object', properties: { a: { type: ['string', 'text'] } } }, run: noop },
      'invalid_schema',
      'input.properties.a.type',
    ],
    [
      'allOf parts that contradict each other',
      {
        name: 't',
        input: { type: 'object', properties: { a: { allOf: [{ type: 'string' }, { type: 'number' }] } } },
        run: noop,
      },
      'unsupported_schema',
      'input.properties.a.allOf.1.type',
    ],
    [
      'a required name that is not a property',
      { name: 't', input: { type: 'object', properties: { a: { type: 'string' } }, required: ['b'] }, run: noop },
      'invalid_schema',
      'input.required',
    ],
    [
      'a pattern that does not compile',
      { name: 't', input: { type: 'object', properties: { a: { type: 'string', pattern: '([a-z' } } }, run: noop },
      'invalid_schema',
      'input.properties.a.pattern',
    ],
    [
      'a defined format the binder does not check',
      {
        name: 't',
        input: { type: 'object', properties: { a: { type: 'string', format: 'uri-template' } } },
        run: noop,
      },
      'unsupported_schema',
      'input.properties.a.format',
    ],
    [
      'a default its own schema refuses',
      {
        name: 't',
        input: { type: 'object', properties: { a: { type: 'integer', maximum: 5, default: 9 } } },
        run: noop,
      },
      'invalid_default',
      'input.properties.a.default',
    ],
    // JSON.parse, because an object literal's __proto__ sets the prototype instead of a key.
    [
      'a property named __proto__',
      { name: 't', input: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'), run: noop },
      'invalid_schema',
      'input.properties',
    ],
    [
      'an empty enum',
      { name: 't', input: { type: 'object', properties: { a: { type: 'string', enum: [] } } }, run: noop },
      'invalid_schema',
      'input.properties.a.enum',
    ],
  ])('refuses %s when the tool is defined', (_case, declaration, code, path) => {
    const error = declarationError(() => defineTool(declaration as never));
    expect(error.code).toBe(code);
    expect(error.path).toBe(path);
    expect(error.tool).toBe((declaration as { name: string }).name);
  });

  it('says what a tool name must be, and what it was', () => {
    const error = declarationError(() => defineTool({ name: 'get weather', input: emptyInput, run: noop }));
    expect(error.message).toBe(
      `A tool needs a name of 1 to 128 letters, digits, '_' or '-' (the API's rule for tool names), but the ` +
        `name was the string "get weather". Name it for what it does, e.g. 'get_weather'.`,
    );
  });

  it('warns about a keyword on a type it does not apply to, which JSON Schema ignores and so does the binder', () => {
    const tool = defineTool({
      name: 't',
      description: 'T.',
      input: { type: 'object', properties: { a: { type: 'string', minimum: 1 } } } as never,
      run: noop,
    });
    expect(tool.warnings).toEqual([
      {
        code: 'inapplicable_keyword',
        tool: 't',
        path: 'input.properties.a.minimum',
        message:
          "Tool 't' has an input schema with a keyword that does nothing at input.properties.a.minimum: 'minimum' " +
          "does not apply to type 'string', so nothing checks it; move it to the schema of the value it is meant " +
          'for, or remove it.',
      },
    ]);
    expect(tool.bind({ a: 'x' })).toEqual({ ok: true, args: { a: 'x' } });
  });

  it('lists every offending path in one error, each with advice that applies to it', () => {
    const error = declarationError(() =>
      defineTool({
        name: 'many',
        description: 'M.',
        input: {
          type: 'object',
          properties: {
            a: { type: 'object', unevaluatedProperties: false },
            b: { $ref: 'other.json#/Thing' },
            c: { type: 'array', items: { type: 'string', pattern: '(a+)+\\1' } },
          },
          dependencies: { a: ['b'] },
        } as never,
        run: noop,
      }),
    );
    expect(error.problems.map((p) => [p.code, p.path])).toEqual([
      ['unsupported_schema', 'input.dependencies'],
      ['unsupported_schema', 'input.properties.a.unevaluatedProperties'],
      ['unsupported_schema', 'input.properties.b.$ref'],
      ['unsupported_pattern', 'input.properties.c.items.pattern'],
    ]);
    expect(error.code).toBe('unsupported_schema');
    expect(error.path).toBe('input.dependencies');
    expect(error.message).toMatch(
      /^Tool 'many' has an input schema legate cannot use at 4 places: \(1\) at input\.dependencies: /,
    );
    expect(error.message).toContain(
      "(3) at input.properties.b.$ref: 'other.json#/Thing' refers to another document, and legate reads no other " +
        "documents; copy the schema into '$defs' and refer to it as '#/$defs/Name'.",
    );
  });

  it('names the tool and the path in the message', () => {
    const error = declarationError(() =>
      defineTool({
        name: 'lookup',
        description: 'L.',
        input: { type: 'object', properties: { when: { type: 'object', unevaluatedProperties: false } } } as never,
        run: noop,
      }),
    );
    expect(error.message).toBe(
      `Tool 'lookup' has an input schema legate cannot use at input.properties.when.unevaluatedProperties: ` +
        "'unevaluatedProperties' is not a rule the binder checks; declare the properties in one object (legate " +
        "merges allOf parts) and use 'additionalProperties'.",
    );
  });

  it('refuses a zod schema JSON Schema cannot describe', () => {
    const error = declarationError(() =>
      defineTool({ name: 'when', description: 'W.', input: z.object({ at: z.date() }), run: noop }),
    );
    expect(error.code).toBe('unsupported_schema');
    expect(error.message).toContain('Date cannot be represented in JSON Schema');
  });

  it('refuses two tools with one name when the agent is constructed', () => {
    const a = defineTool({ name: 'search', description: 'A.', input: emptyInput, run: noop });
    const b = defineTool({ name: 'search', description: 'B.', input: emptyInput, run: noop });
    const error = declarationError(
      () => new Agent({ name: 'agent', model: 'm', tools: [a, b], transport: new ScriptedTransport([]) }),
    );
    expect(error.code).toBe('duplicate_tool_name');
    expect(error.message).toBe(
      `Agent 'agent' has two tools named 'search' (tools[0] and tools[1]); the model could not tell them ` +
        'apart. Rename one.',
    );
  });

  describe('static types', () => {
    it('infers run arguments from a JSON Schema literal, defaults included', () => {
      defineTool({
        name: 'typed',
        description: 'T.',
        input: {
          type: 'object',
          properties: {
            count: { type: 'integer' },
            unit: { type: 'string', enum: ['kg', 'lb'] },
            tags: { type: 'array', items: { type: 'string' } },
            express: { type: 'boolean', default: false },
            note: { type: ['string', 'null'] },
            address: { type: 'object', properties: { zip: { type: 'string' } }, required: ['zip'] },
          },
          required: ['count', 'unit'],
        },
        run: (args) => {
          expectTypeOf(args).toEqualTypeOf<{
            count: number;
            unit: 'kg' | 'lb';
            express: boolean;
            tags?: string[];
            note?: string | null;
            address?: { zip: string };
          }>();
          return 'ok';
        },
      });
    });

    it("infers run arguments from a zod schema's output", () => {
      defineTool({
        name: 'zod_typed',
        description: 'Z.',
        input: z.object({ n: z.number(), day: z.string().transform((s) => new Date(s)), k: z.string().default('x') }),
        run: (args) => {
          expectTypeOf(args).toEqualTypeOf<{ n: number; day: Date; k: string }>();
          return 'ok';
        },
      });
    });

    it('accepts a schema held in a variable typed as JsonObjectSchema', () => {
      const schema: JsonObjectSchema = { type: 'object', properties: { a: { type: 'string' } } };
      const tool = defineTool({ name: 'loose', description: 'L.', input: schema, run: noop });
      expect(tool.bind({ a: 'x' })).toEqual({ ok: true, args: { a: 'x' } });
    });
  });
});
