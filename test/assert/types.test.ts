import { describe, expect, it } from 'vitest';
import '../../src/assert/vitest.js';
import type { AgentResult } from '../../src/index.js';

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
