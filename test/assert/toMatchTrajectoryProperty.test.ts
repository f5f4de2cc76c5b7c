import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../src/assert/vitest.js';
import { maximumMatching } from '../../src/assert/bipartiteMatching.js';
import { inputWithin } from '../../src/assert/inputWithin.js';
import {
  ARGS_MODES,
  TRAJECTORY_ORDERS,
  type ArgsMode,
  type ArgsRule,
  type ReferenceCall,
  type TrajectoryArgs,
  type TrajectoryOrder,
} from '../../src/assert/trajectoryMatch.js';
import { LegateError, assertThat, type AgentResult } from '../../src/index.js';

// toMatchTrajectory against a brute-force statement of each order and args rule: for random short call sequences
// over a few tools and small inputs, the matcher (under vitest and under assertThat, plain and negated) agrees with
// an oracle that tries every placement of the calls (every permutation, every injection) and compares inputs by a
// rule written another way (a deep merge that changes nothing).

// ---- The oracle ----

const isPlain = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `whole` with `part` written over it: keys added or replaced, arrays of one length item by item. */
function merged(whole: unknown, part: unknown): unknown {
  if (isPlain(whole) && isPlain(part)) {
    const result = { ...whole };
    for (const [key, value] of Object.entries(part))
      result[key] = Object.hasOwn(whole, key) ? merged(whole[key], value) : value;
    return result;
  }
  if (Array.isArray(whole) && Array.isArray(part) && whole.length === part.length)
    return whole.map((item, i) => merged(item, part[i]));
  return part;
}

/** `part` is within `whole` when writing it over `whole` changes nothing. */
const within = (part: unknown, whole: unknown) => isDeepStrictEqual(merged(whole, part), whole);

function ruleOf(args: TrajectoryArgs, tool: string): ArgsRule {
  if (typeof args !== 'object') return args;
  return (Object.hasOwn(args, tool) ? args[tool] : undefined) ?? args.default ?? 'exact';
}

function oracleMatches(actual: ReferenceCall, reference: ReferenceCall, args: TrajectoryArgs): boolean {
  if (actual.tool !== reference.tool) return false;
  if (reference.input === undefined) return true;
  const rule = ruleOf(args, actual.tool);
  if (typeof rule === 'function') return rule(actual.input, reference.input, actual.tool);
  return {
    exact: () => isDeepStrictEqual(actual.input, reference.input),
    ignore: () => true,
    subset: () => within(actual.input, reference.input),
    superset: () => within(reference.input, actual.input),
  }[rule]();
}

/** Every injective map of `n` places into `m` (each a list of distinct places of `m`). */
function* injections(n: number, m: number, taken: number[] = []): Generator<number[]> {
  if (taken.length === n) {
    yield taken;
    return;
  }
  for (let j = 0; j < m; j++) if (!taken.includes(j)) yield* injections(n, m, [...taken, j]);
}

const some = (generator: Generator<number[]>, test: (map: number[]) => boolean) => {
  for (const map of generator) if (test(map)) return true;
  return false;
};

function oracle(actual: ReferenceCall[], reference: ReferenceCall[], order: TrajectoryOrder, args: TrajectoryArgs) {
  const m = (i: number, j: number) => oracleMatches(actual[i]!, reference[j]!, args);
  switch (order) {
    case 'strict':
      return actual.length === reference.length && actual.every((_, i) => m(i, i));
    case 'unordered':
      return (
        actual.length === reference.length &&
        some(injections(actual.length, reference.length), (f) => f.every((j, i) => m(i, j)))
      );
    case 'subset':
      return some(injections(actual.length, reference.length), (f) => f.every((j, i) => m(i, j)));
    case 'superset':
      return some(injections(reference.length, actual.length), (g) => g.every((i, j) => m(i, j)));
  }
}

// ---- The cases ----

const TOOLS = ['a', 'b'];
const leaf = fc.constantFrom<unknown>(1, 2, 'x');
const value = fc.oneof(
  leaf,
  fc.array(leaf, { maxLength: 2 }),
  fc.dictionary(fc.constantFrom('p', 'q'), leaf, { maxKeys: 2, noNullPrototype: true }),
);
const input = fc.dictionary(fc.constantFrom('p', 'q', 'r'), value, { maxKeys: 3, noNullPrototype: true });
const call = fc.record({ tool: fc.constantFrom(...TOOLS), input });
const referenceCall = fc.record({ tool: fc.constantFrom(...TOOLS), input }, { requiredKeys: ['tool'] });

/**
 * A reference call made from a call: the same, without its input, with an input of one key fewer or more, or with
 * each list in it one item longer.
 */
const varied = (made: ReferenceCall) =>
  fc.constantFrom('same', 'any', 'fewer', 'more', 'longer').map((how): ReferenceCall => {
    const given = made.input as Record<string, unknown> | undefined;
    if (how === 'any' || given === undefined) return { tool: made.tool };
    if (how === 'fewer') return { tool: made.tool, input: Object.fromEntries(Object.entries(given).slice(1)) };
    if (how === 'more') return { tool: made.tool, input: { ...given, s: [1, { p: 2 }] } };
    if (how === 'longer') {
      const longer = Object.entries(given).map(([key, v]) => [key, Array.isArray(v) ? [...v, 1] : v]);
      return { tool: made.tool, input: Object.fromEntries(longer) };
    }
    return made;
  });

/** The calls made, and a reference: unrelated, the same calls varied, or some of them shuffled with others added. */
const sequences = fc.array(call, { maxLength: 5 }).chain((actual) =>
  fc.tuple(
    fc.constant(actual as ReferenceCall[]),
    fc.oneof(
      fc.array(referenceCall, { maxLength: 5 }),
      fc.tuple(...actual.map(varied)),
      fc
        .tuple(fc.shuffledSubarray(actual), fc.array(referenceCall, { maxLength: 2 }))
        .chain(([kept, added]) => fc.tuple(...[...kept, ...added].map(varied))),
    ),
  ),
);

const mode = fc.constantFrom(...ARGS_MODES);
/** A rule of one's own: a pure function of the two inputs and the tool, true or false at random. */
const fn = fc
  .func(fc.boolean())
  .map((f) => (actual: unknown, expected: unknown, tool: string) => f(actual, expected, tool));
const argsOf: Record<string, fc.Arbitrary<TrajectoryArgs>> = {
  ...Object.fromEntries(ARGS_MODES.map((m: ArgsMode) => [m, fc.constant(m)])),
  function: fn,
  'by tool': fc.record(
    { default: fc.oneof(mode, fn), a: fc.oneof(mode, fn), b: fc.oneof(mode, fn) },
    { requiredKeys: [] },
  ) as fc.Arbitrary<TrajectoryArgs>,
};

/** A live result that made these calls (the fields the assertions read). */
function resultMaking(calls: ReferenceCall[]): AgentResult {
  return {
    agent: 'clerk',
    toolCalls: calls.map((made, i) => ({ id: `toolu_${i}`, name: made.tool, input: made.input, outcome: 'ok' })),
    stopReason: 'end_turn',
    handoffs: [],
    tainted: false,
    taintSource: undefined,
    usage: { inputTokens: 0, outputTokens: 0 },
  } as unknown as AgentResult;
}

/** Whether a check passes (a refusal of what it was given is no verdict: it is thrown on). */
function passes(check: () => unknown): boolean {
  try {
    check();
    return true;
  } catch (error) {
    if (error instanceof LegateError) throw error;
    return false;
  }
}

describe('toMatchTrajectory agrees with a brute-force oracle', () => {
  const combinations = TRAJECTORY_ORDERS.flatMap((order) => Object.keys(argsOf).map((args) => [order, args] as const));

  it.each(combinations)('order %s, args %s', (order, argsName) => {
    const verdicts = { pass: 0, fail: 0 };
    fc.assert(
      fc.property(sequences, argsOf[argsName]!, ([actual, reference], args) => {
        const options = { order, args };
        const expected = oracle(actual, reference, order, args);
        verdicts[expected ? 'pass' : 'fail']++;
        const subject = resultMaking(actual);
        expect(passes(() => assertThat(subject).matchesTrajectory(reference, options))).toBe(expected);
        expect(passes(() => expect(subject).toMatchTrajectory(reference, options))).toBe(expected);
        expect(passes(() => assertThat(subject).not.matchesTrajectory(reference, options))).toBe(!expected);
        if (!expected) {
          // The first place the run breaks the order is marked, once.
          const message = (() => {
            try {
              expect(subject).toMatchTrajectory(reference, options);
            } catch (error) {
              return (error as Error).message;
            }
          })()!;
          expect(message.match(/^> /gm)).toHaveLength(1);
        }
      }),
      { numRuns: 100 },
    );
    // Both verdicts come up, so neither side can pass by always saying the same.
    expect(verdicts.pass).toBeGreaterThan(5);
    expect(verdicts.fail).toBeGreaterThan(5);
  });
});

describe('the parts it is built of, against brute force', () => {
  /** The largest matching, by trying every choice for each left vertex: none, or any free right vertex it reaches. */
  function largest(edges: number[][], used: Set<number> = new Set(), left = 0): number {
    if (left === edges.length) return 0;
    let best = largest(edges, used, left + 1);
    for (const right of edges[left]!)
      if (!used.has(right)) best = Math.max(best, 1 + largest(edges, new Set([...used, right]), left + 1));
    return best;
  }

  it('maximumMatching pairs only along edges, each right vertex once, and as many as any matching can', () => {
    const graph = fc
      .tuple(fc.nat(6), fc.nat(6))
      .chain(([left, right]) =>
        fc.tuple(
          fc.constant(right),
          fc.array(fc.uniqueArray(fc.nat(Math.max(right - 1, 0)), { maxLength: right }), {
            minLength: left,
            maxLength: left,
          }),
        ),
      )
      .map(([right, edges]) => [right, right === 0 ? edges.map(() => []) : edges] as const);
    fc.assert(
      fc.property(graph, ([right, edges]) => {
        const partners = maximumMatching(edges, right);
        expect(partners).toHaveLength(edges.length);
        const paired = partners.flatMap((partner, left) => (partner === undefined ? [] : [[left, partner] as const]));
        for (const [left, partner] of paired) expect(edges[left]).toContain(partner);
        expect(new Set(paired.map(([, partner]) => partner)).size).toBe(paired.length);
        expect(paired.length).toBe(largest(edges));
      }),
      { numRuns: 500 },
    );
  });

  it('inputWithin is the merge that changes nothing', () => {
    const pair = fc.oneof(
      fc.tuple(input, input),
      call
        .chain((made) => fc.tuple(varied(made), fc.constant(made)))
        .map(([a, b]) => [a.input ?? {}, b.input] as const),
      call
        .chain((made) => fc.tuple(fc.constant(made), varied(made)))
        .map(([a, b]) => [a.input, b.input ?? {}] as const),
      input
        .chain((whole) => fc.tuple(fc.subarray(Object.keys(whole)), fc.constant(whole)))
        .map(([keys, whole]) => {
          const part = Object.fromEntries(keys.map((key) => [key, whole[key]]));
          return [part, whole] as const;
        }),
    );
    fc.assert(
      fc.property(pair, ([part, whole]) => {
        expect(inputWithin(part, whole, isDeepStrictEqual)).toBe(within(part, whole));
      }),
      { numRuns: 1000 },
    );
  });
});
