import { describe, expect, it } from 'vitest';
import '../../src/assert/vitest.js';
import { assertThat, type AgentResult } from '../../src/index.js';

// A type test: `npm test` runs tsc over this file, so a matcher legate does not define fails the build.
describe('matcher types', () => {
  it('accepts the documented matchers and rejects a misspelt one', () => {
    const check = (result: AgentResult) => {
      expect(result).toBeTainted({ source: 'fetch_page' });
      expect(result).not.toHaveBlocked('send_payment', { rule: 'taint' });
      expect(result).toHaveToolSequence(['a', 'b'], { mode: 'inOrder' });
      expect(result).toHaveUsageBelow({ inputTokens: 1 });
      // @ts-expect-error: no such matcher
      expect(result).toBeTaintd();
      // @ts-expect-error: not a sequence mode
      expect(result).toHaveToolSequence(['a'], { mode: 'subset' });
      expect(result).toMatchTrajectory([{ tool: 'a' }, { tool: 'b', input: { to: 'x' } }]);
      expect(result).toMatchTrajectory('trajectories/zero-trust.yaml', {
        order: 'superset',
        args: { default: 'subset', b: 'ignore', c: (actual, expected, tool) => tool === 'c' && actual === expected },
      });
      expect(result).not.toMatchTrajectory(result, { order: 'unordered', args: (actual) => actual !== null });
      // @ts-expect-error: toHaveToolSequence's mode, not an order
      expect(result).toMatchTrajectory([{ tool: 'a' }], { order: 'inOrder' });
      // @ts-expect-error: a reference call names its tool `tool`
      expect(result).toMatchTrajectory([{ name: 'a' }]);
      // @ts-expect-error: not an args rule
      expect(result).toMatchTrajectory([{ tool: 'a' }], { args: { a: 'loose' } });
    };
    expect(typeof check).toBe('function');
  });
});

describe('assertThat types', () => {
  it('derives the short names from the matchers, chains, and rejects a misspelt check', () => {
    const check = (result: AgentResult) => {
      assertThat(result)
        .tainted({ source: 'fetch_page' })
        .not.blocked('fetch_page')
        .toolSequence(['a'], { mode: 'atMost' })
        .matchesTrajectory([{ tool: 'a' }], { order: 'subset', args: 'superset' })
        .complete();
      // @ts-expect-error: no such check
      assertThat(result).taintd();
      // @ts-expect-error: the vitest name is not an assertThat method
      assertThat(result).toBeTainted();
      // @ts-expect-error: a count, not a string
      assertThat(result).calledToolTimes('a', '2');
      // @ts-expect-error: toMatch becomes matches, it is not dropped
      assertThat(result).trajectory([{ tool: 'a' }]);
      // @ts-expect-error: the vitest name is not an assertThat method
      assertThat(result).toMatchTrajectory([{ tool: 'a' }]);
    };
    expect(typeof check).toBe('function');
  });
});
