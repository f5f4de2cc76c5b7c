import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  ScriptedTransport,
  ToolDeclarationError,
  defineTool,
  reply,
  type JsonSchema,
  type ToolResultBlock,
  type UserMessage,
} from '../../src/index.js';

const LIMIT = 64;
const noop = () => 'ok';

/** `depth` levels of arrays and objects, the outermost first; the tool input wraps it once more. */
function nested(depth: number, kinds: readonly ('array' | 'object')[]): unknown {
  let value: unknown = 1;
  for (let i = depth - 1; i >= 0; i--) value = kinds[i % kinds.length] === 'array' ? [value] : { k: value };
  return value;
}

/** A schema accepting exactly the shapes `nested` makes, `depth` levels deep. */
function nestedSchema(depth: number, kinds: readonly ('array' | 'object')[]): JsonSchema {
  let schema: JsonSchema = { type: 'integer' };
  for (let i = depth - 1; i >= 0; i--) {
    schema =
      kinds[i % kinds.length] === 'array'
        ? { type: 'array', items: schema }
        : { type: 'object', properties: { k: schema }, required: ['k'] };
  }
  return schema;
}

describe('input depth', () => {
  it('binds a value exactly at the limit; refuses one level more as too_deep, with the path where it crossed', () => {
    // The input object is level 1, so `v` may nest LIMIT - 1 levels.
    const deepest = defineTool({
      name: 'deep',
      description: 'D.',
      input: { type: 'object', properties: { v: nestedSchema(LIMIT - 1, ['array']) } },
      run: noop,
    });
    expect(deepest.bind({ v: nested(LIMIT - 1, ['array']) }).ok).toBe(true);
    const refused = deepest.bind({ v: nested(LIMIT, ['array']) });
    expect(refused).toMatchObject({
      ok: false,
      invalid: { code: 'too_deep', argument: 'v', path: ['v', ...Array(LIMIT - 1).fill(0)] },
    });
    const { message } = (refused as { invalid: { message: string } }).invalid;
    expect(message).toBe(
      `Tool 'deep' argument 'v' must be nested at most 64 levels deep (arrays and objects inside one another, ` +
        'the input itself being the first), ' +
        `but it reached level 65 at v${'[0]'.repeat(LIMIT - 1)}; send the value with less nesting.`,
    );
  });

  it('refuses an input nested 20,000 deep as too_deep without overflowing, given as a value or as JSON text', () => {
    const tool = defineTool({
      name: 'flat',
      description: 'F.',
      input: { type: 'object', properties: { x: { type: 'string' } } },
      run: noop,
    });
    const input = { x: nested(20_000, ['object', 'array']) };
    expect(tool.bind(input)).toMatchObject({ ok: false, invalid: { code: 'too_deep', argument: 'x' } });
    expect(tool.bind(`{"x":${'['.repeat(20_000)}${']'.repeat(20_000)}}`)).toMatchObject({
      ok: false,
      invalid: { code: 'too_deep', path: ['x', ...Array(LIMIT - 1).fill(0)] },
    });
    // The input as a whole too deep: a top-level array inside arrays.
    expect(tool.bind(nested(LIMIT + 1, ['array']))).toMatchObject({
      ok: false,
      invalid: { code: 'too_deep', argument: null },
    });
  });

  it('refuses at definition a schema that nests deeper than inputs may', () => {
    const tooDeep = () =>
      defineTool({
        name: 'deep',
        description: 'D.',
        input: { type: 'object', properties: { v: nestedSchema(LIMIT, ['object']) } },
        run: noop,
      });
    expect(tooDeep).toThrow(ToolDeclarationError);
    expect(tooDeep).toThrow(/at most 64 levels of arrays and objects, and this one is level 65/);
    try {
      tooDeep();
    } catch (error) {
      expect(error).toMatchObject({
        code: 'unsupported_schema',
        path: `input.properties.v${'.properties.k'.repeat(LIMIT - 1)}`,
      });
    }
  });
});

describe('agent.run with deep tool input', () => {
  it('never throws, beside a pending approval: deeper than the limit is refused as too_deep, within it binds as ' +
    'usual', async () => {
    const pay = defineTool({
      name: 'send_payment',
      description: 'Pays.',
      privileged: true,
      input: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
      run: noop,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.integer({ min: 1, max: 80 }), fc.integer({ min: 1, max: 20_000 })),
        fc.array(fc.constantFrom('array', 'object') as fc.Arbitrary<'array' | 'object'>, {
          minLength: 1,
          maxLength: 3,
        }),
        fc.boolean(),
        async (depth, kinds, withApproval) => {
          // Schemas are at most LIMIT levels; an input deeper than its schema is refused by depth or type.
          const schemaDepth = Math.min(depth, LIMIT - 1);
          const deep = defineTool({
            name: 'deep',
            description: 'D.',
            input: { type: 'object', properties: { v: nestedSchema(schemaDepth, kinds) } },
            run: () => 'ran',
          });
          const calls = [
            { name: 'deep', input: { v: nested(depth, kinds) } },
            ...(withApproval ? [{ name: 'send_payment', input: { amount: 5 } }] : []),
          ];
          const transport = new ScriptedTransport([reply.toolUses(calls), reply.text('Done.')]);
          const agent = new Agent({
            name: 'a',
            model: 'claude-haiku-5-5',
            tools: [deep, pay],
            transport,
            approvalRequired: (tool) => tool.privileged,
          });
          const result = await agent.run('Go.');
          const answer = withApproval ? result.suspension!.batch.answered[0]! : result.toolCalls[0]!;
          if (depth + 1 > LIMIT) {
            expect(answer).toMatchObject({ outcome: 'invalid', error: { code: 'too_deep', argument: 'v' } });
            expect((answer.error as { path: unknown[] }).path).toHaveLength(LIMIT);
          } else {
            expect(answer).toMatchObject({ outcome: 'ok', output: 'ran' });
          }
          if (withApproval) {
            expect(result.stopReason).toBe('suspended');
            expect(result.suspension!.pending[0]!.inputDigest).toMatch(/^sha256:[0-9a-f]{16}$/);
          } else {
            const results = (transport.requests[1]!.messages[2] as UserMessage).content as ToolResultBlock[];
            expect(results[0]!.is_error === true).toBe(depth + 1 > LIMIT);
          }
        },
      ),
      { numRuns: 30 },
    );
  }, 60_000);
});
