import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { vi } from 'vitest';

/** The shipped corpus: every trajectory in trajectories/. */
export const SHIPPED = readdirSync('trajectories')
  .filter((name) => name.endsWith('.yaml'))
  .sort()
  .map((name) => `trajectories/${name}`);

/**
 * A project in `dir` whose trajectory folder (`t/` unless named) holds copies of the given trajectories (default:
 * the shipped corpus), and whose config exports this repository's agents (legate.config.ts's): `legate rerecord t
 * --out new` records them again. Returns `dir`.
 */
export function corpusProject(dir: string, files: readonly string[] = SHIPPED, folder = 't'): string {
  const root = resolve('.');
  mkdirSync(join(dir, folder), { recursive: true });
  for (const file of files) copyFileSync(file, join(dir, folder, file.split('/').pop()!));
  writeFileSync(
    join(dir, 'legate.config.ts'),
    `import { defineConfig } from '${root}/src/index.ts';\nimport base from '${root}/legate.config.ts';\n` +
      `export default defineConfig({ agents: base.agents, trajectories: '${folder}' });\n`,
  );
  return dir;
}

/** Points the Anthropic transport at `url` (a stand-in), with a key it accepts, and no LEGATE_MODE or CI. */
export function liveAt(url: string): void {
  vi.stubEnv('ANTHROPIC_BASE_URL', url);
  vi.stubEnv('ANTHROPIC_API_KEY', 'stand-in');
  for (const name of ['LEGATE_MODE', 'CI']) vi.stubEnv(name, '');
}
