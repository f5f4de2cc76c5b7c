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
        .complete();
      // @ts-expect-error: no such check
      assertThat(result).taintd();
      // @ts-expect-error: the vitest name is not an assertThat method
      assertThat(result).toBeTainted();
      // @ts-expect-error: a count, not a string
      assertThat(result).calledToolTimes('a', '2');
    };
    expect(typeof check).toBe('function');
  });
});
