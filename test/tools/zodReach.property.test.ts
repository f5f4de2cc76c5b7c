import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineTool, type AnyTool, type InvalidArgument } from '../../src/index.js';

// The zod reach over classes of inputs (zodReach.test.ts has the examples and the messages): every valid
// record, tuple, tree and discriminated-union value reaches `run` as sent, and a value broken at one place
// is refused at that place. zod's own parse of the same value is the second opinion on validity.

const bound = (tool: AnyTool, input: unknown) => tool.bind(input);

function refusalOf(tool: AnyTool, input: unknown): InvalidArgument {
  const result = tool.bind(input);
  if (result.ok) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  return result.invalid;
}

/** Keys a model may send: any text, including ones that look like Object.prototype's members. */
const key = fc.oneof(fc.string(), fc.constantFrom('constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'));
/** Finite JSON numbers; -0 is sent as 0 (JSON text has no negative zero a model would mean). */
const number = fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n));
/** A dictionary with own keys only, built as JSON.parse builds one (so '__proto__' is an own key). */
const dictionary = <T>(value: fc.Arbitrary<T>) =>
  fc
    .uniqueArray(fc.tuple(key, value), { selector: ([k]) => k, maxLength: 6 })
    .map((entries) => JSON.parse(JSON.stringify(Object.fromEntries(entries))) as Record<string, T>);

describe('z.record over its class', () => {
  const schema = z.object({ scores: z.record(z.string(), z.number()) });
  const rankTool = () => defineTool({ name: 'rank', description: 'Ranks.', input: schema, run: () => 'ok' });

  it('hands run every key and value sent, as zod parses them', () => {
    const rank = rankTool();
    fc.assert(
      fc.property(dictionary(number), (scores) => {
        const input = JSON.parse(JSON.stringify({ scores }));
        // zod's record drops a '__proto__' key; every other key reaches run as sent.
        expect(bound(rank, input)).toEqual({ ok: true, args: schema.parse(input) });
      }),
    );
  });

  it('refuses a value that is not a number at its key', () => {
    const rank = rankTool();
    const notANumber = fc.jsonValue().filter((v) => typeof v !== 'number');
    fc.assert(
      fc.property(dictionary(number), key, notANumber, (scores, at, wrong) => {
        const input = JSON.parse(JSON.stringify({ scores: { ...scores, [at]: wrong } }));
        if (!Object.hasOwn(input.scores, at)) return; // a key JSON cannot carry as sent
        expect(refusalOf(rank, input)).toMatchObject({ code: 'invalid_type', path: ['scores', at] });
      }),
    );
  });
});

describe('z.tuple with a rest over its class', () => {
  const schema = z.object({ path: z.tuple([z.string(), z.boolean()], z.int()) });
  const walkTool = () => defineTool({ name: 'walk', description: 'Walks.', input: schema, run: () => 'ok' });
  const safeInt = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });

  it('hands run the tuple and its rest as sent', () => {
    const walk = walkTool();
    fc.assert(
      fc.property(fc.string(), fc.boolean(), fc.array(safeInt, { maxLength: 6 }), (s, b, rest) => {
        const input = { path: [s, b, ...rest] };
        expect(bound(walk, input)).toEqual({ ok: true, args: schema.parse(input) });
      }),
    );
  });

  it('refuses an item of the rest that is not a whole number at its index', () => {
    const walk = walkTool();
    fc.assert(
      fc.property(
        fc.array(safeInt, { maxLength: 4 }),
        fc.nat({ max: 4 }),
        fc.oneof(fc.double({ noInteger: true }), fc.string(), fc.boolean()),
        (rest, i, wrong) => {
          const at = Math.min(i, rest.length);
          const items = [...rest];
          items.splice(at, 0, wrong as number);
          const refusal = refusalOf(walk, { path: ['a', true, ...items] });
          expect(refusal.path).toEqual(['path', 2 + at]);
          expect(['invalid_type', 'out_of_range']).toContain(refusal.code);
        },
      ),
    );
  });
});

describe('z.lazy trees over their class', () => {
  interface Node {
    name: string;
    children: Node[];
  }
  const node: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string(), children: z.array(node) }));
  const schema = z.object({ tree: node });
  const outlineTool = () => defineTool({ name: 'outline', description: 'Outlines.', input: schema, run: () => 'ok' });
  // Trees up to 12 nodes deep (the input limit allows 31), leaves more likely the deeper it goes.
  const { tree } = fc.letrec<{ tree: Node }>((tie) => ({
    tree: fc.record({
      name: fc.string(),
      children: fc.oneof(
        { maxDepth: 12, depthIdentifier: 'tree' },
        fc.constant<Node[]>([]),
        fc.array(tie('tree'), { minLength: 1, maxLength: 3 }),
      ),
    }),
  }));

  it('hands run the whole tree, at any depth the input limit allows', () => {
    const outline = outlineTool();
    fc.assert(
      fc.property(tree, (t) => {
        expect(bound(outline, { tree: t })).toEqual({ ok: true, args: schema.parse({ tree: t }) });
      }),
    );
  });

  it('refuses a node whose name is not a string, at its path', () => {
    const outline = outlineTool();
    fc.assert(
      fc.property(tree, fc.array(fc.nat(), { maxLength: 6 }), (t, turns) => {
        // Walk down the tree by the turns as far as it goes, then break that node's name.
        const path: (string | number)[] = ['tree'];
        let at = structuredClone(t);
        const root = at;
        for (const turn of turns) {
          if (at.children.length === 0) break;
          const i = turn % at.children.length;
          path.push('children', i);
          at = at.children[i]!;
        }
        (at as { name: unknown }).name = 7;
        expect(refusalOf(outline, { tree: root })).toMatchObject({
          code: 'invalid_type',
          path: [...path, 'name'],
        });
      }),
    );
  });
});

describe('z.discriminatedUnion over its class', () => {
  const schema = z.object({
    shape: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('circle'), r: z.number().positive() }),
      z.object({ kind: z.literal('square'), side: z.number(), label: z.string().optional() }),
    ]),
  });
  const drawTool = () => defineTool({ name: 'draw', description: 'Draws.', input: schema, run: () => 'ok' });
  const shape = fc.oneof(
    fc.record({ kind: fc.constant('circle' as const), r: fc.double({ min: Number.MIN_VALUE, noNaN: true, max: 1e9 }) }),
    fc.record(
      { kind: fc.constant('square' as const), side: number, label: fc.string() },
      { requiredKeys: ['kind', 'side'] },
    ),
  );

  it('hands run the matching alternative as sent', () => {
    const draw = drawTool();
    fc.assert(
      fc.property(shape, (s) => {
        expect(bound(draw, { shape: s })).toEqual({ ok: true, args: schema.parse({ shape: s }) });
      }),
    );
  });

  it('refuses any other discriminator at the discriminator, naming the allowed values', () => {
    const draw = drawTool();
    const other = fc.jsonValue().filter((v) => v !== 'circle' && v !== 'square' && v !== null);
    fc.assert(
      fc.property(shape, other, (s, kind) => {
        const refusal = refusalOf(draw, { shape: { ...s, kind } });
        expect(refusal).toMatchObject({ code: 'not_a_known_value', path: ['shape', 'kind'] });
        expect(refusal.message).toContain('must be one of "circle", "square"');
      }),
    );
  });
});
