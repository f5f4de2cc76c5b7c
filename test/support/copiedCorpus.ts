import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The largest shipped trajectory (27 KB): a corpus of its copies is 40 MB of YAML at 1,500 files. */
export const LARGEST_SHIPPED = 'trajectories/web-search-taint.yaml';

/**
 * A project in `dir` whose trajectory folder `t/` holds `count` copies of a shipped trajectory (`f1.yaml`, ...), and
 * whose config (built legate, from dist/) names the agent that replays it: a corpus larger than a small heap, for the
 * tests that run a verb of the built command over it under `--max-old-space-size`.
 */
export function copiedCorpus(dir: string, count: number, file = LARGEST_SHIPPED): string {
  const root = resolve('.');
  mkdirSync(join(dir, 't'));
  for (let i = 1; i <= count; i++) copyFileSync(file, join(dir, 't', `f${i}.yaml`));
  writeFileSync(
    join(dir, 'legate.config.mjs'),
    `import { defineConfig } from '${root}/dist/src/index.js';\n` +
      `import { createSearchingAssistant } from '${root}/dist/examples/payments/agent.js';\n` +
      'export default defineConfig({ agents: { searching_assistant: createSearchingAssistant }, ' +
      "trajectories: 't' });\n",
  );
  return dir;
}
