import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  Agent,
  ScriptedTransport,
  ToolDeclarationError,
  defineTool,
  reply,
  type AnyTool,
  type InvalidArgument,
  type ToolResultBlock,
  type UserMessage,
} from '../../src/index.js';

// zod inputs get the reach JSON Schema inputs have (issue 13): for each zod shape, the schema the model is
// shown (z.toJSONSchema's output, normalised as docs/tools.md says), a valid call that reaches `run` with the
// parsed value, and a malformed call refused with the model-facing message checked verbatim. Calls go through
// an Agent and a scripted model, so what is checked is what `run` received and what the model read.

const SAFE = Number.MAX_SAFE_INTEGER;
const received: unknown[] = [];
const record = (args: unknown) => {
  received.push(args);
  return 'ok';
};

interface Call {
  /** What `run` received; undefined when the call was refused. */
  args: unknown;
  /** The refusal, as the caller gets it; undefined when the call ran. */
  invalid: InvalidArgument | undefined;
  /** The tool_result the model read. */
  result: ToolResultBlock;
}

async function call(tool: AnyTool, input: unknown): Promise<Call> {
  received.length = 0;
  const transport = new ScriptedTransport([reply.toolUse(tool.name, input), reply.text('done')]);
  const run = await new Agent({ name: 'reach', model: 'claude-sonnet-5-5', tools: [tool], transport }).run('Go.');
  const result = (run.messages[2] as UserMessage).content[0] as ToolResultBlock;
  const error = run.toolCalls[0]!.error;
  return { args: received[0], invalid: error?.error === 'invalid_argument' ? error : undefined, result };
}

/** A refused call: the model read the message as an error result, and `run` never ran. */
async function refused(tool: AnyTool, input: unknown): Promise<InvalidArgument> {
  const { args, invalid, result } = await call(tool, input);
  expect(args).toBeUndefined();
  expect(invalid).toBeDefined();
  expect(result).toMatchObject({ is_error: true, content: invalid!.message });
  return invalid!;
}

/** A call that ran: the value `run` received. */
async function ran(tool: AnyTool, input: unknown): Promise<unknown> {
  const { args, invalid } = await call(tool, input);
  expect(invalid).toBeUndefined();
  return args;
}

/** The published form of an integer zod writes: its safe range as bounds. */
const zodInteger = { type: 'integer', minimum: -SAFE, maximum: SAFE };

describe('z.union', () => {
  const pick = () =>
    defineTool({
      name: 'pick',
      description: 'Picks an item by id.',
      input: z.object({
        id: z.union([z.string(), z.int()]),
        by: z.union([z.object({ name: z.string() }), z.object({ index: z.number() })]),
      }),
      run: record,
    });

  it('shows the model anyOf, each object alternative closed', () => {
    expect(pick().inputSchema).toEqual({
      type: 'object',
      properties: {
        id: { anyOf: [{ type: 'string' }, zodInteger] },
        by: {
          anyOf: [
            {
              type: 'object',
              properties: { name: { type: 'string' } },
              required: ['name'],
              additionalProperties: false,
            },
            {
              type: 'object',
              properties: { index: { type: 'number' } },
              required: ['index'],
              additionalProperties: false,
            },
          ],
        },
      },
      required: ['id', 'by'],
      additionalProperties: false,
    });
  });

  it('hands run the value of the alternative that accepted it', async () => {
    expect(await ran(pick(), { id: 7, by: { index: 2 } })).toEqual({ id: 7, by: { index: 2 } });
    expect(await ran(pick(), { id: 'x7', by: { name: 'ada' } })).toEqual({ id: 'x7', by: { name: 'ada' } });
  });

  it('refuses a value of a type no alternative has at the union, naming the alternatives', async () => {
    const invalid = await refused(pick(), { id: true, by: { index: 2 } });
    expect(invalid).toMatchObject({ code: 'invalid_type', path: ['id'] });
    expect(invalid.message).toBe(
      `Tool 'pick' argument 'id' must be a string, or a whole number, but the value was the boolean true.`,
    );
  });

  it('refuses a value no alternative accepts with the refusal of the closest alternative', async () => {
    const invalid = await refused(pick(), { id: 1, by: { name: 3 } });
    expect(invalid).toMatchObject({ code: 'invalid_type', path: ['by', 'name'] });
    expect(invalid.message).toBe(
      `Tool 'pick' argument 'by' member 'name' must be a string, but the value was the number 3; argument 'by' ` +
        `matches none of its alternatives (an object with 'name', or an object with 'index'), and an object with ` +
        `'name' came closest.`,
    );
  });
});

describe('a union as the whole input', () => {
  it('is never published as a root anyOf/oneOf, which the Messages API refuses (400) for every request', () => {
    // "input_schema does not support oneOf, allOf, or anyOf at the top level": legate either shows such a tool
    // as one object, or refuses it when it is defined; it never lets the first request fail.
    let published: Record<string, unknown> | undefined;
    try {
      published = defineTool({
        name: 'find',
        description: 'Finds a record by id or by url.',
        input: z.union([z.object({ id: z.string() }), z.object({ url: z.url() })]),
        run: record,
      }).inputSchema;
    } catch (error) {
      expect(error).toBeInstanceOf(ToolDeclarationError);
    }
    if (published !== undefined) {
      expect(published.type).toBe('object');
      expect(Object.keys(published).filter((k) => k === 'anyOf' || k === 'oneOf' || k === 'allOf')).toEqual([]);
    }
  });
});

describe('z.discriminatedUnion', () => {
  const draw = () =>
    defineTool({
      name: 'draw',
      description: 'Draws a shape.',
      input: z.object({
        shape: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('circle'), r: z.number().positive() }),
          z.object({ kind: z.literal('square'), side: z.number() }),
        ]),
      }),
      run: record,
    });

  it('shows the model oneOf with the const discriminator', () => {
    expect(draw().inputSchema).toEqual({
      type: 'object',
      properties: {
        shape: {
          oneOf: [
            {
              type: 'object',
              properties: { kind: { type: 'string', const: 'circle' }, r: { type: 'number', exclusiveMinimum: 0 } },
              required: ['kind', 'r'],
              additionalProperties: false,
            },
            {
              type: 'object',
              properties: { kind: { type: 'string', const: 'square' }, side: { type: 'number' } },
              required: ['kind', 'side'],
              additionalProperties: false,
            },
          ],
        },
      },
      required: ['shape'],
      additionalProperties: false,
    });
  });

  it('hands run the matching alternative', async () => {
    expect(await ran(draw(), { shape: { kind: 'square', side: 2 } })).toEqual({ shape: { kind: 'square', side: 2 } });
  });

  it('refuses an unknown or missing discriminator at the discriminator, naming the allowed values', async () => {
    const unknown = await refused(draw(), { shape: { kind: 'hexagon', side: 2 } });
    expect(unknown).toMatchObject({ code: 'not_a_known_value', path: ['shape', 'kind'] });
    expect(unknown.message).toBe(
      `Tool 'draw' argument 'shape' member 'kind' must be one of "circle", "square", but the value was the ` +
        'string "hexagon".',
    );
    const missing = await refused(draw(), { shape: { side: 2 } });
    expect(missing).toMatchObject({ code: 'required', path: ['shape', 'kind'] });
    expect(missing.message).toBe(
      `Tool 'draw' argument 'shape' member 'kind' is required and must be one of "circle", "square", but it was ` +
        'missing.',
    );
  });

  it("gives the matching alternative's own refusal", async () => {
    const invalid = await refused(draw(), { shape: { kind: 'circle', r: -1 } });
    expect(invalid).toMatchObject({ code: 'out_of_range', path: ['shape', 'r'] });
    expect(invalid.message).toBe(
      `Tool 'draw' argument 'shape' member 'r' must be a number greater than 0, but the value was the number -1.`,
    );
  });
});

describe('z.record', () => {
  const rank = () =>
    defineTool({
      name: 'rank',
      description: 'Ranks players.',
      input: z.object({
        scores: z.record(z.string(), z.number()),
        labels: z.record(z.enum(['low', 'high']), z.string()),
      }),
      run: record,
    });

  it("shows the model an object whose extra keys take the value's schema", () => {
    expect(rank().inputSchema).toEqual({
      type: 'object',
      properties: {
        scores: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'number' } },
        labels: {
          type: 'object',
          propertyNames: { type: 'string', enum: ['low', 'high'] },
          additionalProperties: { type: 'string' },
          required: ['low', 'high'],
        },
      },
      required: ['scores', 'labels'],
      additionalProperties: false,
    });
  });

  it('hands run every key the model sent', async () => {
    const input = { scores: { ada: 3, 'grace h': 4.5 }, labels: { low: 'L', high: 'H' } };
    expect(await ran(rank(), input)).toEqual(input);
  });

  it('refuses a value of the wrong type at its key', async () => {
    const invalid = await refused(rank(), { scores: { ada: 'high' }, labels: { low: 'L', high: 'H' } });
    expect(invalid).toMatchObject({ code: 'invalid_type', path: ['scores', 'ada'] });
    expect(invalid.message).toBe(
      `Tool 'rank' argument 'scores' member 'ada' must be a number, but the value was the string "high".`,
    );
  });

  it('refuses a key the key schema refuses as an unknown member', async () => {
    const invalid = await refused(rank(), { scores: {}, labels: { low: 'L', high: 'H', mid: 'M' } });
    expect(invalid).toMatchObject({ code: 'unknown_argument', path: ['labels', 'mid'] });
    expect(invalid.message).toBe(
      `Tool 'rank' argument 'labels' has no member 'mid'; member names must be one of "low", "high".`,
    );
  });
});

describe('z.tuple', () => {
  const move = () =>
    defineTool({
      name: 'move',
      description: 'Moves to a point.',
      input: z.object({ to: z.tuple([z.number(), z.number()]), path: z.tuple([z.string()], z.int()) }),
      run: record,
    });

  it('shows the model prefixItems: closed for a tuple, with items for its rest', () => {
    expect(move().inputSchema).toEqual({
      type: 'object',
      properties: {
        to: {
          type: 'array',
          prefixItems: [{ type: 'number' }, { type: 'number' }],
          items: false,
          minItems: 2,
          maxItems: 2,
        },
        path: { type: 'array', prefixItems: [{ type: 'string' }], items: zodInteger, minItems: 1 },
      },
      required: ['to', 'path'],
      additionalProperties: false,
    });
  });

  it('hands run the tuple and its rest', async () => {
    expect(await ran(move(), { to: [1.5, -2], path: ['north', 3, 4] })).toEqual({
      to: [1.5, -2],
      path: ['north', 3, 4],
    });
  });

  it('refuses an item of the wrong type at its position, and a tuple of the wrong length', async () => {
    const wrong = await refused(move(), { to: [1, 'x'], path: ['n'] });
    expect(wrong).toMatchObject({ code: 'invalid_type', path: ['to', 1] });
    expect(wrong.message).toBe(`Tool 'move' argument 'to' item 1 must be a number, but the value was the string "x".`);
    const rest = await refused(move(), { to: [1, 2], path: ['n', 2.5] });
    expect(rest).toMatchObject({ code: 'invalid_type', path: ['path', 1] });
    expect(rest.message).toBe(
      `Tool 'move' argument 'path' item 1 must be a whole number, but the value was the number 2.5.`,
    );
    const long = await refused(move(), { to: [1, 2, 3], path: ['n'] });
    expect(long).toMatchObject({ code: 'too_long', path: ['to'] });
  });
});

describe('z.lazy recursion', () => {
  interface Node {
    name: string;
    children: Node[];
  }
  const node: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string().min(1), children: z.array(node) }));
  const outline = () =>
    defineTool({
      name: 'outline',
      description: 'Saves an outline.',
      input: z.object({ tree: node }),
      run: record,
    });
  const chain = (levels: number): Node => {
    let tree: Node = { name: 'leaf', children: [] };
    for (let i = 1; i < levels; i++) tree = { name: `n${i}`, children: [tree] };
    return tree;
  };

  it('shows the model a $ref to the recursive definition, kept in $defs', () => {
    expect(outline().inputSchema).toEqual({
      type: 'object',
      properties: { tree: { $ref: '#/$defs/__schema0' } },
      required: ['tree'],
      additionalProperties: false,
      $defs: {
        __schema0: {
          type: 'object',
          properties: {
            name: { type: 'string', minLength: 1 },
            children: { type: 'array', items: { $ref: '#/$defs/__schema0' } },
          },
          required: ['name', 'children'],
          additionalProperties: false,
        },
      },
    });
  });

  it('hands run the whole tree', async () => {
    const tree = { name: 'root', children: [{ name: 'a', children: [{ name: 'a1', children: [] }] }, chain(20)] };
    expect(await ran(outline(), { tree })).toEqual({ tree });
  });

  it('refuses a node at any depth with its path', async () => {
    const tree = { name: 'root', children: [{ name: 'a', children: [{ name: '', children: [] }] }] };
    const invalid = await refused(outline(), { tree });
    expect(invalid).toMatchObject({ code: 'too_short', path: ['tree', 'children', 0, 'children', 0, 'name'] });
    expect(invalid.message).toBe(
      `Tool 'outline' argument 'tree' member 'children' item 0 member 'children' item 0 member 'name' must be a ` +
        'string of at least 1 character, but the value was the string "" (0 characters).',
    );
  });

  it('refuses a tree deeper than the depth limit with too_deep, before anything else', async () => {
    // Each node is two levels (the node, its children array) below the input: 31 nodes reach level 64.
    expect(await ran(outline(), { tree: chain(31) })).toEqual({ tree: chain(31) });
    const invalid = await refused(outline(), { tree: chain(32) });
    expect(invalid).toMatchObject({ code: 'too_deep', argument: 'tree' });
  });
});

describe('nullable, optional, nullish', () => {
  const note = () =>
    defineTool({
      name: 'note',
      description: 'Saves a note.',
      input: z.object({
        text: z.string().nullable(),
        tag: z.string().optional(),
        folder: z.string().nullish(),
        pinned: z.boolean().nullable().default(null),
        link: z.object({ url: z.url() }).nullable(),
      }),
      run: record,
    });

  it('shows the model null as a type of its own, or as an anyOf alternative for an object', () => {
    expect(note().inputSchema).toEqual({
      type: 'object',
      properties: {
        text: { type: ['string', 'null'] },
        tag: { type: 'string' },
        folder: { type: ['string', 'null'] },
        pinned: { default: null, type: ['boolean', 'null'] },
        link: {
          anyOf: [
            {
              type: 'object',
              properties: { url: expect.objectContaining({ type: 'string', format: 'uri' }) },
              required: ['url'],
              additionalProperties: false,
            },
            { type: 'null' },
          ],
        },
      },
      required: ['text', 'link'],
      additionalProperties: false,
    });
  });

  it('hands run null where the schema takes null, drops it where it does not, and applies the default', async () => {
    expect(await ran(note(), { text: null, tag: null, folder: null, link: null })).toEqual({
      text: null,
      folder: null,
      pinned: null,
      link: null,
    });
    expect(await ran(note(), { text: 'hi', link: { url: 'https://example.com/a' } })).toEqual({
      text: 'hi',
      pinned: null,
      link: { url: 'https://example.com/a' },
    });
  });

  it('refuses a missing nullable argument, and a value of another type, saying null is allowed', async () => {
    const missing = await refused(note(), { link: null });
    expect(missing).toMatchObject({ code: 'required', path: ['text'] });
    expect(missing.message).toBe(
      `Tool 'note' argument 'text' is required and must be a string, or null, but it was missing.`,
    );
    const wrong = await refused(note(), { text: 'hi', link: 'https://example.com' });
    expect(wrong).toMatchObject({ code: 'invalid_type', path: ['link'] });
    expect(wrong.message).toBe(
      `Tool 'note' argument 'link' must be an object, or null, but the value was the string "https://example.com".`,
    );
  });
});

describe('defaults at depth', () => {
  const plan = () =>
    defineTool({
      name: 'plan',
      description: 'Plans a job.',
      input: z.object({
        options: z
          .object({ retries: z.int().min(0).default(3), mode: z.enum(['fast', 'safe']).default('safe') })
          .default({ retries: 3, mode: 'safe' }),
        steps: z.array(z.object({ name: z.string(), weight: z.number().default(1) })),
      }),
      run: record,
    });

  it('shows the model every default where it applies', () => {
    expect(plan().inputSchema).toEqual({
      type: 'object',
      properties: {
        options: {
          default: { retries: 3, mode: 'safe' },
          type: 'object',
          properties: {
            retries: { default: 3, type: 'integer', minimum: 0, maximum: SAFE },
            mode: { default: 'safe', type: 'string', enum: ['fast', 'safe'] },
          },
          additionalProperties: false,
        },
        steps: {
          type: 'array',
          items: {
            type: 'object',
            properties: { name: { type: 'string' }, weight: { default: 1, type: 'number' } },
            required: ['name'],
            additionalProperties: false,
          },
        },
      },
      required: ['steps'],
      additionalProperties: false,
    });
  });

  it('hands run the defaults at every depth: a missing object, a missing member, an array item member', async () => {
    expect(await ran(plan(), { steps: [{ name: 'a' }, { name: 'b', weight: 2 }] })).toEqual({
      options: { retries: 3, mode: 'safe' },
      steps: [
        { name: 'a', weight: 1 },
        { name: 'b', weight: 2 },
      ],
    });
    expect(await ran(plan(), { options: { mode: 'fast' }, steps: [] })).toEqual({
      options: { retries: 3, mode: 'fast' },
      steps: [],
    });
    // null means absent for a member whose schema does not take null: the default applies.
    expect(await ran(plan(), { options: { retries: null }, steps: [{ name: 'a', weight: null }] })).toEqual({
      options: { retries: 3, mode: 'safe' },
      steps: [{ name: 'a', weight: 1 }],
    });
  });

  it('refuses a malformed member of an array item at its path', async () => {
    const invalid = await refused(plan(), { steps: [{ name: 'a' }, { name: 'b', weight: 'heavy' }] });
    expect(invalid).toMatchObject({ code: 'invalid_type', path: ['steps', 1, 'weight'] });
    expect(invalid.message).toBe(
      `Tool 'plan' argument 'steps' item 1 member 'weight' must be a number, but the value was the string "heavy".`,
    );
  });
});

describe('refinements', () => {
  const tag = () =>
    defineTool({
      name: 'tag',
      description: 'Tags a document.',
      input: z.object({
        tags: z.array(z.string().refine((s) => s === s.toLowerCase(), 'tags are lower case')),
        meta: z.record(
          z.string(),
          z.number().refine((n) => n !== 13, 'thirteen is not allowed'),
        ),
      }),
      run: record,
    });

  it("runs zod's own checks after the structural one, at depth, in the same shape", async () => {
    const structural = await refused(tag(), { tags: [1], meta: {} });
    expect(structural).toMatchObject({ code: 'invalid_type', path: ['tags', 0] });
    expect(structural.message).toBe(
      `Tool 'tag' argument 'tags' item 0 must be a string, but the value was the number 1.`,
    );
    const rule = await refused(tag(), { tags: ['ok', 'Loud'], meta: {} });
    expect(rule).toMatchObject({ code: 'failed_rule', path: ['tags', 1] });
    expect(rule.message).toBe(
      `Tool 'tag' argument 'tags' item 1 was refused: tags are lower case; the value was the string "Loud".`,
    );
    const inRecord = await refused(tag(), { tags: [], meta: { a: 1, b: 13 } });
    expect(inRecord).toMatchObject({ code: 'failed_rule', path: ['meta', 'b'] });
    expect(await ran(tag(), { tags: ['a'], meta: { a: 1 } })).toEqual({ tags: ['a'], meta: { a: 1 } });
  });
});
