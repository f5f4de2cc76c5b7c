import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  ScriptedTransport,
  defineTool,
  reply,
  type ToolResultBlock,
  type UserMessage,
} from '../../src/index.js';

const CODES = [
  'required',
  'invalid_type',
  'out_of_range',
  'too_long',
  'too_short',
  'invalid_format',
  'not_a_known_value',
  'unknown_argument',
  'not_parsable',
  'too_deep',
  'failed_rule',
];

const schema = {
  type: 'object',
  properties: {
    weight: { type: 'integer', minimum: 1, maximum: 30 },
    unit: { type: 'string', enum: ['kg', 'lb'] },
    express: { type: 'boolean', default: false },
    address: {
      type: 'object',
      properties: {
        street: { type: 'string', minLength: 1, maxLength: 40 },
        zip: { type: 'string', pattern: '^[0-9]{5}$' },
      },
      required: ['street', 'zip'],
    },
    parts: { type: 'array', items: { type: 'number', exclusiveMinimum: 0 }, maxItems: 4 },
    label: { type: ['string', 'null'] },
  },
  required: ['weight', 'unit', 'address'],
} as const;

/** The tool under test, defined inside each test (its schema compiled there, where a mutation run sees it). */
const shipTool = () => defineTool({ name: 'ship', description: 'Ships.', input: schema, run: () => 'shipped' });

/** JSON values shaped like this tool's input often enough to reach every rule, and anything else too. */
const nearlyValidInput = fc.record(
  {
    weight: fc.oneof(fc.integer({ min: -5, max: 40 }), fc.jsonValue()),
    unit: fc.oneof(fc.constantFrom('kg', 'lb', 'KG', 'stone'), fc.jsonValue()),
    express: fc.oneof(fc.boolean(), fc.jsonValue()),
    address: fc.oneof(
      fc.record(
        {
          street: fc.oneof(fc.string(), fc.jsonValue()),
          zip: fc.oneof(fc.stringMatching(/^[0-9]{4,6}$/), fc.jsonValue()),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue(),
    ),
    parts: fc.oneof(fc.array(fc.oneof(fc.double(), fc.jsonValue()), { maxLength: 6 }), fc.jsonValue()),
    label: fc.oneof(fc.string(), fc.constant(null), fc.jsonValue()),
    extra: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

const anyInput = fc.oneof(nearlyValidInput, fc.jsonValue(), fc.anything(), fc.string());

const validInput = fc.record(
  {
    weight: fc.integer({ min: 1, max: 30 }),
    unit: fc.constantFrom('kg', 'lb'),
    express: fc.boolean(),
    address: fc.record({
      street: fc.string({ minLength: 1, maxLength: 40, unit: 'binary' }),
      zip: fc.stringMatching(/^[0-9]{5}$/),
    }),
    parts: fc.array(fc.double({ min: Number.MIN_VALUE, noNaN: true, noDefaultInfinity: true }), { maxLength: 4 }),
    label: fc.option(fc.string(), { nil: null }),
  },
  { requiredKeys: ['weight', 'unit', 'address'] },
);

describe('binder properties', () => {
  it('never throws, whatever the model sends, and every refusal is well formed', () => {
    const tool = shipTool();
    fc.assert(
      fc.property(anyInput, (input) => {
        const result = tool.bind(input);
        if (result.ok) return;
        const { invalid } = result;
        expect(invalid.error).toBe('invalid_argument');
        expect(invalid.tool).toBe('ship');
        expect(CODES).toContain(invalid.code);
        expect(invalid.message.startsWith(`Tool 'ship' `)).toBe(true);
        expect(invalid.argument).toBe(typeof invalid.path[0] === 'string' ? invalid.path[0] : null);
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts every valid input, handing run exactly what was sent plus defaults', () => {
    const tool = shipTool();
    fc.assert(
      fc.property(validInput, (input) => {
        const result = tool.bind(input);
        expect(result).toEqual({ ok: true, args: { express: false, ...input } });
      }),
      { numRuns: 1000 },
    );
  });

  it('names the broken argument when one argument of a valid input is given the wrong type', () => {
    const tool = shipTool();
    const keys = Object.keys(schema.properties) as (keyof typeof schema.properties)[];
    const wrongFor = {
      weight: 'heavy',
      unit: 3,
      express: 'yes',
      address: ['Main St'],
      parts: { a: 1 },
      label: 7,
    } as const;
    fc.assert(
      fc.property(validInput, fc.constantFrom(...keys), (input, key) => {
        const result = tool.bind({ ...input, [key]: wrongFor[key] });
        expect(result).toMatchObject({ ok: false, invalid: { path: [key], code: 'invalid_type' } });
      }),
      { numRuns: 500 },
    );
  });

  it('never lets invalid input reach run, and answers it with an is_error result', async () => {
    const tool = shipTool();
    await fc.assert(
      fc.asyncProperty(fc.oneof(nearlyValidInput, fc.jsonValue()), async (input) => {
        const received: unknown[] = [];
        const spy = defineTool({
          name: 'ship',
          description: 'Ships.',
          input: schema,
          run: (args) => void received.push(args),
        });
        const transport = new ScriptedTransport([reply.toolUse('ship', input), reply.text('done')]);
        const result = await new Agent({ name: 'shipper', model: 'm', tools: [spy], transport }).run('ship it');

        const bound = tool.bind(input);
        const call = result.toolCalls[0]!;
        const answer = (result.messages[2] as UserMessage).content[0] as ToolResultBlock;
        if (bound.ok) {
          expect(received).toEqual([bound.args]);
          expect(call.outcome).toBe('ok');
          expect(answer.is_error).toBeUndefined();
        } else {
          expect(received).toEqual([]);
          expect(call).toMatchObject({ outcome: 'invalid', error: bound.invalid });
          expect(answer).toEqual({
            type: 'tool_result',
            tool_use_id: call.id,
            content: bound.invalid.message,
            is_error: true,
          });
        }
      }),
      { numRuns: 300 },
    );
  });
});
