import { execFileSync, spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';

// The Quick start runs the built command: build it here, so this checks today's code.
beforeAll(() => {
  execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'pipe' });
}, 120_000);

describe('the built legate command', () => {
  it('is executable, and replays the shipped corpus as the Quick start promises', () => {
    const run = spawnSync('./dist/cli/legate.js', ['replay'], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', LEGATE_MODE: '' },
    });
    expect(run.error).toBeUndefined();
    expect(run.stdout).toMatch(/\n(\d+) replayed: \1 passed, 0 failed\n/);
    expect(run.status).toBe(0);
  }, 60_000);
});
