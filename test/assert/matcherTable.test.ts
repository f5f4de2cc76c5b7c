import { readFileSync, readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../src/assert/vitest.js';
import { matchers, shortName } from '../../src/assert/matchers.js';
import { SEQUENCE_MODES } from '../../src/assert/toolSequence.js';
import { ARGS_MODES, TRAJECTORY_ORDERS } from '../../src/assert/trajectoryMatch.js';
import { assertThat, loadTrajectory, type Trajectory } from '../../src/index.js';

const names = Object.keys(matchers) as (keyof typeof matchers)[];
const corpus: Trajectory[] = readdirSync('trajectories')
  .filter((file) => file.endsWith('.yaml'))
  .map((file) => loadTrajectory(`trajectories/${file}`));

// Values drawn from the corpus, so that both passing and failing checks come up.
const tools = fc.constantFrom(
  'fetch_page',
  'send_payment',
  'send_email',
  'issue_refund',
  'refund_payment',
  'add',
  'nope',
);
const reasons = fc.constantFrom('end_turn', 'terminal', 'max_tokens', 'refusal', 'suspended', 'tool_use');
const rules = fc.constantFrom('taint', 'approval', 'limit', 'authorization', 'prerequisite');
const inputs = fc.option(
  fc.constantFrom({ url: 'https://example.com/invoice/42' }, { orderId: 'A-1002', amount: 15 }, {}),
  { nil: undefined },
);

/** Arguments for every matcher; typed by the table, so a new matcher cannot be left out of this test. */
const argumentsFor: { [K in keyof typeof matchers]: fc.Arbitrary<unknown[]> } = {
  toBeTainted: fc.tuple(fc.record({ source: tools }, { requiredKeys: [] })),
  toHaveBlocked: fc.tuple(
    fc.option(tools, { nil: undefined }),
    fc.record({ rule: rules, source: tools }, { requiredKeys: [] }),
  ),
  toBeTerminal: fc.constant([]),
  toHaveStopped: fc.tuple(reasons),
  toHaveHandedOffTo: fc.tuple(
    fc.oneof(fc.constantFrom('billing', 'legal'), fc.array(fc.constantFrom('billing', 'legal'), { maxLength: 2 })),
  ),
  toHaveCalledTool: fc.tuple(tools, inputs),
  toHaveCalledToolTimes: fc.tuple(tools, fc.nat(3)),
  toHaveToolSequence: fc.tuple(
    fc.array(tools, { maxLength: 3 }),
    fc.record({ mode: fc.constantFrom(...SEQUENCE_MODES) }, { requiredKeys: [] }),
  ),
  toMatchTrajectory: fc.tuple(
    fc.oneof(
      fc.array(fc.record({ tool: tools, input: inputs }, { requiredKeys: ['tool'] }), { maxLength: 3 }),
      fc.constantFrom(...corpus),
      fc.constantFrom('trajectories/zero-trust.yaml', 'trajectories/approve-on-taint.yaml'),
    ),
    fc.record(
      {
        order: fc.constantFrom(...TRAJECTORY_ORDERS),
        args: fc.oneof(fc.constantFrom(...ARGS_MODES), fc.record({ default: fc.constantFrom(...ARGS_MODES) })),
      },
      { requiredKeys: [] },
    ),
  ),
  toHavePlannedEffect: fc.tuple(tools, inputs),
  toBeSuspended: fc.constant([]),
  toHaveInvalidArgument: fc.tuple(
    tools,
    fc.record(
      { argument: fc.constantFrom('left', 'right'), code: fc.constantFrom('invalid_type') },
      { requiredKeys: [] },
    ),
  ),
  toHaveNoToolFailures: fc.constant([]),
  toHaveNoUnsafeFlow: fc.tuple(
    fc.record(
      {
        untrusted: fc.subarray(['fetch_page', 'send_email']),
        privileged: fc.subarray(['send_payment', 'issue_refund', 'refund_payment']),
        rules: fc.constantFrom([], [{ kind: 'limit', tool: 'send_email', maxCalls: 1 }]),
      },
      { requiredKeys: [] },
    ),
  ),
  toBeComplete: fc.constant([]),
  toHaveUsageBelow: fc.tuple(
    fc.record({ inputTokens: fc.nat(20_000), outputTokens: fc.nat(2_000) }, { requiredKeys: [] }),
  ),
};

function throws(assertion: () => unknown): string | undefined {
  try {
    assertion();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('the one table of matchers', () => {
  it('gives every entry a vitest matcher and an assertThat method of the derived name', () => {
    const chain = assertThat(corpus[0]!) as unknown as Record<string, unknown>;
    const assertion = expect(corpus[0]) as unknown as Record<string, unknown>;
    for (const name of names) {
      expect(typeof assertion[name], name).toBe('function');
      expect(typeof chain[shortName(name)], shortName(name)).toBe('function');
    }
    // toBe and toHave are dropped, toMatch becomes matches.
    expect(names.map(shortName)).toEqual(
      names.map((name) =>
        name
          .replace(/^to(Be|Have)(.)/, (_, _prefix, first: string) => first.toLowerCase())
          .replace(/^toMatch/, 'matches'),
      ),
    );
    expect(shortName('toMatchTrajectory')).toBe('matchesTrajectory');
    expect(shortName('toHaveNoUnsafeFlow')).toBe('noUnsafeFlow');
  });

  it('decides every check alike in vitest and in assertThat, with the same message, plain or negated', () => {
    const cases = fc
      .constantFrom(...names)
      .chain((name) => fc.tuple(fc.constant(name), argumentsFor[name], fc.constantFrom(...corpus), fc.boolean()));
    fc.assert(
      fc.property(cases, ([name, args, trajectory, negated]) => {
        type Methods = Record<string, (...a: unknown[]) => void>;
        const base = expect(trajectory);
        const vitest = (negated ? base.not : base) as unknown as Methods;
        const start = assertThat(trajectory);
        const node = (negated ? start.not : start) as unknown as Methods;
        expect(throws(() => node[shortName(name)]!(...args))).toBe(throws(() => vitest[name]!(...args)));
      }),
      { numRuns: 300 },
    );
  });

  it('is the list the README and docs/assertions.md give', () => {
    const listed = (text: string) => [...new Set(text.match(/\bto(?:Be|Have|Match)[A-Z]\w*/g))];
    const readme = readFileSync('README.md', 'utf8').match(/The matchers: ([\s\S]*?)Without vitest/)![1]!;
    expect(listed(readme).sort()).toEqual([...names].sort());
    const docs = readFileSync('docs/assertions.md', 'utf8').match(
      /<!-- matchers -->([\s\S]*?)<!-- \/matchers -->/,
    )![1]!;
    expect(listed(docs).sort()).toEqual([...names].sort());
    for (const name of names) expect(docs, name).toContain(`\`${shortName(name)}\``);
  });
});
