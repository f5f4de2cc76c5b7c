import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError, defineTool } from '../../src/index.js';
import { readServeMcpOptions } from '../../src/mcp/serveMcpOptions.js';
import { loadMcpServerSdk } from '../../src/mcp/loadMcpSdk.js';
import { createMcpSession } from '../../src/mcp/serveMcpSession.js';

const strict = defineTool({
  name: 'strict',
  description: 'Takes arguments under many rules.',
  input: {
    type: 'object',
    properties: {
      name: { type: 'string', maxLength: 4, pattern: '^[a-z]+$' },
      kind: { enum: ['a', 'b'] },
      count: { type: 'integer', minimum: 1, maximum: 10 },
      tags: { type: 'array', items: { type: 'string', maxLength: 3 }, maxItems: 2 },
      address: { type: 'object', properties: { zip: { type: 'string', pattern: '^[0-9]{5}$' } }, required: ['zip'] },
      either: { anyOf: [{ type: 'integer' }, { type: 'boolean' }] },
    },
    required: ['name'],
  },
  run: () => 'ran',
});
// The same rules, with a declared result: refusals are told as text alone.
const typed = defineTool({
  name: 'typed',
  description: 'The same, with an output schema.',
  input: strict.inputSchema as never,
  output: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  run: () => ({ ok: true }),
});

/** What the next call of `thrower` throws. */
let toThrow: unknown;
const thrower = defineTool({
  name: 'thrower',
  description: 'Throws what the test says.',
  input: { type: 'object', properties: {} },
  run: () => {
    throw toThrow;
  },
});

/** A value whose text cannot occur in a message by chance: a marked string, or a large number. */
const marked = fc.oneof(
  fc.stringMatching(/^[0-9a-f]{6,12}$/).map((hex) => `Vq${hex}`),
  fc.integer({ min: 10_000_000, max: 2 ** 40 }),
  fc.double({ min: 1e7, max: 1e12, noNaN: true }).filter((n) => !Number.isInteger(n)),
);
const value = fc.oneof(
  marked,
  fc.array(marked, { maxLength: 3 }),
  fc.record({ zip: marked }),
  fc.dictionary(fc.constantFrom('zip', 'street'), marked),
);
/** A key no tool takes, marked like a value: its name is what arrived too. */
const markedKey = fc.stringMatching(/^[0-9a-f]{6,12}$/).map((hex) => `Kq${hex}`);
const input = fc.oneof(
  fc.dictionary(fc.constantFrom('name', 'kind', 'count', 'tags', 'address', 'either', 'extra'), value),
  // Otherwise valid, so the unknown key, at the top or in a member, is what is refused.
  fc.tuple(markedKey, value).map(([key, sent]) => ({ name: 'ab', [key]: sent })),
  fc.tuple(markedKey, marked).map(([key, sent]) => ({ name: 'ab', address: { zip: '12345', [key]: sent } })),
);

/** Every marked leaf of a value, and every marked key, as its text. */
function leaves(sent: unknown): string[] {
  if (typeof sent === 'string') return [sent];
  if (typeof sent === 'number') return [String(sent), JSON.stringify(sent)];
  if (Array.isArray(sent)) return sent.flatMap(leaves);
  if (typeof sent === 'object' && sent !== null)
    return Object.entries(sent).flatMap(([key, member]) => [...(key.startsWith('Kq') ? [key] : []), ...leaves(member)]);
  return [];
}

let client: Client;

beforeAll(async () => {
  const sdk = await loadMcpServerSdk();
  const server = createMcpSession(readServeMcpOptions({ tools: [strict, typed, thrower] }), sdk);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'property', version: '1.0.0' });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client.close();
});

describe('serveMcp refusals, over any refused input', () => {
  it('never contain the value sent, and carry the binder code and argument', async () => {
    await fc.assert(
      fc.asyncProperty(input, fc.constantFrom(strict, typed), async (args, tool) => {
        const bound = tool.bind(args);
        fc.pre(!bound.ok);
        const result = await client.callTool({ name: tool.name, arguments: args });
        const text = JSON.stringify(result);
        for (const leaf of leaves(args)) expect(text).not.toContain(leaf);
        expect(result.isError).toBe(true);
        const refusal = JSON.parse((result.content as { text: string }[])[0]!.text) as Record<string, unknown>;
        const invalid = tool.bind(args, { quoteValue: false }) as {
          invalid: { argument: string | null; code: string };
        };
        expect(refusal).toMatchObject({
          error: 'invalid_argument',
          argument: invalid.invalid.argument,
          code: invalid.invalid.code,
        });
        expect(result.structuredContent).toEqual(tool === strict ? refusal : undefined);
      }),
      { numRuns: 300 },
    );
  });
});

describe('serveMcp failures, over anything a tool throws', () => {
  const classes = [Error, TypeError, RangeError, class DatabaseError extends Error {}];
  const thrown = fc.oneof(
    fc.tuple(fc.constantFrom(...classes), marked).map(([ErrorClass, text]) => new ErrorClass(`failed: ${text}`)),
    marked,
    fc.record({ secret: marked }),
  );
  it('tell only the tool and the error class: never the message, the stack or the value', async () => {
    await fc.assert(
      fc.asyncProperty(thrown, async (error) => {
        toThrow = error;
        const result = await client.callTool({ name: 'thrower', arguments: {} });
        const errorClass = error instanceof Error ? error.constructor.name : `a thrown ${typeof error}`;
        const failure = {
          error: 'tool_failed',
          tool: 'thrower',
          errorClass,
          message: `Tool 'thrower' failed with ${errorClass}.`,
        };
        expect(result).toEqual({
          isError: true,
          content: [{ type: 'text', text: JSON.stringify(failure) }],
          structuredContent: failure,
        });
      }),
      { numRuns: 100 },
    );
  });
});

describe('serveMcp HTTP bounds, over any value given', () => {
  const bounds = [
    ['maxSessions', Number.MAX_SAFE_INTEGER],
    ['idleTimeoutMs', 2 ** 31 - 1],
    ['readTimeoutMs', 2 ** 31 - 1],
  ] as const;
  const given = fc.oneof(
    fc.integer({ min: -5, max: 5 }),
    fc.constantFrom(2 ** 31 - 2, 2 ** 31 - 1, 2 ** 31, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1),
    fc.double(),
    fc.integer().map(String),
    fc.constantFrom(null, true, [], {}, 10n),
  );
  it('is taken when a whole number from 1 to its bound, else refused as invalid_serve_option naming it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...bounds), given, ([key, max], value) => {
        const options = { tools: [strict], transport: 'http', [key]: value };
        if (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= max) {
          expect(readServeMcpOptions(options)[key]).toBe(value);
          return;
        }
        const error = (() => {
          try {
            readServeMcpOptions(options);
          } catch (thrown) {
            return thrown;
          }
        })();
        expect(error).toBeInstanceOf(UsageError);
        expect(error).toMatchObject({ code: 'invalid_serve_option' });
        expect((error as Error).message).toMatch(new RegExp(`^serveMcp: '${key}' must be a whole number`));
      }),
      { numRuns: 300 },
    );
  });
});
