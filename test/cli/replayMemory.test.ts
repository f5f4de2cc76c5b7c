import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLegate } from '../support/builtPackage.js';
import { useTempDir } from '../support/tempDir.js';

// A corpus replays in memory bounded by one file, not by the corpus: with no report asked for, nothing of a file
// replayed is kept. A bound, not a time: 1,500 copies of the largest shipped trajectory (27 KB, 40 MB of YAML)
// under a 48 MB heap. Keeping each parsed trajectory, as the replay once did, ran out of memory (seen; at 96 MB
// too, after 1,294 files).

const root = resolve('.');
const tempDir = useTempDir();
const FILES = 1_500;

function corpus(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 't'));
  for (let i = 1; i <= FILES; i++) copyFileSync('trajectories/web-search-taint.yaml', join(dir, 't', `f${i}.yaml`));
  writeFileSync(
    join(dir, 'legate.config.mjs'),
    `import { defineConfig } from '${root}/dist/src/index.js';\n` +
      `import { createSearchingAssistant } from '${root}/dist/examples/payments/agent.js';\n` +
      'export default defineConfig({ agents: { searching_assistant: createSearchingAssistant }, ' +
      "trajectories: 't' });\n",
  );
  return dir;
}

describe('legate replay over a corpus larger than its heap', () => {
  it(`replays ${FILES} files under a 48 MB heap, keeping nothing of the files replayed`, async () => {
    const run = await runLegate(['replay', '--workers', '1'], corpus(), {}, ['--max-old-space-size=48']);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n').at(-1)).toBe(`${FILES} replayed: ${FILES} passed, 0 failed`);
    expect(run.status).toBe(0);
  });
});
