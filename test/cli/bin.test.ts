import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtLegate } from '../support/builtPackage.js';
import { type ChildOutput, childOutput } from '../support/childOutput.js';

const env = { ...process.env, NO_COLOR: '1', LEGATE_MODE: '' };

/** Runs an executable file by its shebang, as a shell does; waits on its end, however long the machine takes. */
function execute(file: string, args: string[]): Promise<ChildOutput> {
  return childOutput(spawn(file, args, { env, stdio: ['ignore', 'pipe', 'inherit'] }));
}

describe('the legate command', () => {
  it('is, as npm links it, an executable launcher with no install-time script to build it', () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
      bin: Record<string, string>;
      files: string[];
      scripts: Record<string, string>;
    };
    expect(manifest.bin).toEqual({ legate: './bin/legate.js' });
    expect(manifest.files).toContain('bin/legate.js');
    expect(statSync('bin/legate.js').mode & 0o111).toBe(0o111);
    expect(['preinstall', 'install', 'postinstall', 'prepare'].filter((name) => manifest.scripts[name])).toEqual([]);
    expect(manifest.scripts.prepack).toBe('npm run build');
  });

  it('replays the shipped corpus from a checkout as the Quick start promises (npm ci, npx legate replay)', async () => {
    const run = await execute('./bin/legate.js', ['replay']);
    expect(run.stdout).toMatch(/\n(\d+) replayed: \1 passed, 0 failed\n/);
    expect(run.status).toBe(0);
  }, 120_000);

  // `npm pack` ships the built command (prepack builds it); this run's build (test/support/packageBuild.ts) is of
  // today's source.
  it('is built executable, and the build replays the shipped corpus', async () => {
    const run = await execute(await builtLegate(), ['replay']);
    expect(run.stdout).toMatch(/\n(\d+) replayed: \1 passed, 0 failed\n/);
    expect(run.status).toBe(0);
  }, 120_000);
});
