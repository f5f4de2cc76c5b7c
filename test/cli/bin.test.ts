import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';

const env = { ...process.env, NO_COLOR: '1', LEGATE_MODE: '' };

// `npm pack` ships the built command (prepack builds it): build it here, so this checks today's code.
beforeAll(() => {
  execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'pipe' });
}, 120_000);

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

  it('replays the shipped corpus from a checkout, as the Quick start promises (npm ci && npx legate replay)', () => {
    const run = spawnSync('./bin/legate.js', ['replay'], { encoding: 'utf8', env });
    expect(run.error).toBeUndefined();
    expect(run.stdout).toMatch(/\n(\d+) replayed: \1 passed, 0 failed\n/);
    expect(run.status).toBe(0);
  }, 60_000);

  it('is built executable, and the build replays the shipped corpus', () => {
    const run = spawnSync('./dist/cli/legate.js', ['replay'], { encoding: 'utf8', env });
    expect(run.error).toBeUndefined();
    expect(run.stdout).toMatch(/\n(\d+) replayed: \1 passed, 0 failed\n/);
    expect(run.status).toBe(0);
  }, 60_000);
});
