import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLegate } from '../support/builtPackage.js';
import { copiedCorpus } from '../support/copiedCorpus.js';
import { useTempDir } from '../support/tempDir.js';

// Each verb that reads a corpus does it in memory bounded by one file (and, for a page, a small row per file), not
// by the corpus. A bound, not a time: the built command over copies of the largest shipped trajectory (27 KB) under
// a heap smaller than the corpus's trajectories. Each count was seen to run out of memory with the code that held
// every trajectory, or the whole page as one string (docs/scale.md); test/cli/replayMemory.test.ts holds the plain
// replay to the same kind of bound.

const tempDir = useTempDir();
const heap = (megabytes: number) => [`--max-old-space-size=${megabytes}`];

/** The rows of the page's index, by verdict. */
function verdicts(page: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [, verdict] of page.matchAll(/<tr data-file="[^"]*" data-verdict="([a-z]+)">/g))
    counts[verdict!] = (counts[verdict!] ?? 0) + 1;
  return counts;
}

describe('the verbs over a corpus larger than their heap', () => {
  it('legate view writes the page of 600 files under a 32 MB heap, and leaves nothing beside it', async () => {
    const dir = copiedCorpus(tempDir(), 600);
    const run = await runLegate(['view', 't', '--out', 'page.html'], dir, {}, heap(32));
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^wrote page\.html \(600 trajectories, \d+ KB\)\n$/);
    expect(run.status).toBe(0);
    const page = readFileSync(join(dir, 'page.html'), 'utf8');
    expect(verdicts(page)).toEqual({ recorded: 600 });
    expect(page.match(/<section class="trajectory"/g)).toHaveLength(600);
    expect(readdirSync(dir).sort()).toEqual(['legate.config.mjs', 'page.html', 't']);
  });

  it('legate replay --reporter html writes the page of 600 replayed files under a 48 MB heap', async () => {
    const dir = copiedCorpus(tempDir(), 600);
    const args = ['replay', '--workers', '1', '--reporter', 'html', '--output', 'replay.html'];
    const run = await runLegate(args, dir, {}, heap(48));
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n').at(-1)).toBe('600 replayed: 600 passed, 0 failed');
    expect(run.status).toBe(0);
    expect(verdicts(readFileSync(join(dir, 'replay.html'), 'utf8'))).toEqual({ passed: 600 });
    expect(readdirSync(dir).sort()).toEqual(['legate.config.mjs', 'replay.html', 't']);
  });

  it('legate validate checks 800 files under a 32 MB heap', async () => {
    const run = await runLegate(['validate', 't'], copiedCorpus(tempDir(), 800), {}, heap(32));
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n').at(-1)).toBe('800 checked: 800 valid, 0 invalid');
    expect(run.status).toBe(0);
  });
});
