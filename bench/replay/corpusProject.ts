import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FILES, generateCorpus } from '../replayCorpus.js';

/**
 * A project for `legate replay` in `dir`: `files` trajectories in t/ and a legate.config.ts that exports the
 * corpus's agent from the built package. The first FILES are recorded by the runtime into `recorded` once (the
 * replay bench's corpus); a larger corpus repeats them under other names, which replay costs the same.
 */
export async function corpusProject(dir: string, files: number, recorded: string): Promise<string> {
  if (readdirSync(recorded).length < FILES) await generateCorpus(recorded);
  const sources = readdirSync(recorded).sort();
  mkdirSync(join(dir, 't'), { recursive: true });
  for (let i = 0; i < files; i++)
    copyFileSync(join(recorded, sources[i % FILES]!), join(dir, 't', `run-${String(i).padStart(5, '0')}.yaml`));
  const url = (path: string) => pathToFileURL(resolve(path)).href;
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(
    join(dir, 'legate.config.ts'),
    `import { defineConfig } from '${url('dist/src/index.js')}';\n` +
      `import { agent } from '${url('bench/replayCorpus.ts')}';\n` +
      `export default defineConfig({ agents: { bench: agent }, trajectories: 't' });\n`,
  );
  return dir;
}
