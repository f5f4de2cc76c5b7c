import { describe, expect, it } from 'vitest';
import { runLegate } from '../support/builtPackage.js';
import { copiedCorpus } from '../support/copiedCorpus.js';
import { useTempDir } from '../support/tempDir.js';

// A corpus replays in memory bounded by one file, not by the corpus: with no report asked for, nothing of a file
// replayed is kept, whether this thread replays it or a worker does (and sends its verdict back). A bound, not a
// time: 1,500 copies of the largest shipped trajectory (27 KB, 40 MB of YAML) under a 48 MB heap, which every
// thread is given (a worker's heap is its own, under the same flag). Keeping each parsed trajectory, as the replay
// once did, ran out of memory (seen; at 96 MB too, after 1,294 files). test/cli/corpusMemory.test.ts holds the
// other verbs to the same kind of bound.

const tempDir = useTempDir();
const FILES = 1_500;

describe('legate replay over a corpus larger than its heap', () => {
  it.each([1, 2])(
    `--workers %i: replays ${FILES} files under a 48 MB heap, keeping nothing of them`,
    async (workers) => {
      const run = await runLegate(['replay', '--workers', String(workers)], copiedCorpus(tempDir(), FILES), {}, [
        '--max-old-space-size=48',
      ]);
      expect(run.stderr).toBe('');
      expect(run.stdout.trim().split('\n').at(-1)).toBe(`${FILES} replayed: ${FILES} passed, 0 failed`);
      expect(run.status).toBe(0);
    },
  );
});
