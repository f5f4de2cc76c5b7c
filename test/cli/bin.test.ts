import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { builtLegate } from '../support/builtPackage.js';

// The Quick start runs the built command (built from today's source for this run: test/support/packageBuild.ts),
// as its file, by its shebang, not through `node`.
describe('the built legate command', () => {
  it('is executable, and replays the shipped corpus as the Quick start promises', async () => {
    const child = spawn(await builtLegate(), ['replay'], {
      env: { ...process.env, NO_COLOR: '1', LEGATE_MODE: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
    });
    const [status] = (await once(child, 'close')) as [number | null];
    expect(stdout).toMatch(/\n(\d+) replayed: \1 passed, 0 failed\n/);
    expect(status).toBe(0);
  }, 120_000);
});
