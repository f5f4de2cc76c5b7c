import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();
const child = ['--import', 'tsx', 'test/support/suspendChild.ts'];

/** Starts the suspending process and resolves once it has saved its suspension. */
function suspendInChild(database: string, effects: string) {
  const process = spawn('node', [...child, 'suspend', database, effects], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  process.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const suspended = new Promise<string>((resolve, reject) => {
    process.stdout.on('data', (chunk) => {
      const match = /SUSPENDED (\S+)/.exec(String(chunk));
      if (match) resolve(match[1]!);
    });
    process.on('exit', (code) => reject(new Error(`the suspending process exited (${code}) before suspending: ${stderr}`)));
  });
  return { process, suspended };
}

describe('a suspended run survives its process', () => {
  it('is killed with SIGKILL after suspending; a new process resumes it from SQLite, and the approved effect happens exactly once', async () => {
    const dir = tempDir();
    const database = join(dir, 'runs.db');
    const effects = join(dir, 'effects.log');
    const first = suspendInChild(database, effects);
    const runId = await first.suspended;
    first.process.kill('SIGKILL');
    await new Promise((resolve) => first.process.on('exit', resolve));
    expect(first.process.signalCode).toBe('SIGKILL');
    expect(existsSync(effects)).toBe(false);

    const resumed = spawnSync('node', [...child, 'resume', database, effects, runId], { encoding: 'utf8' });
    expect(resumed.stderr).toBe('');
    expect(resumed.stdout.trim()).toBe('DONE end_turn The money is on its way.');

    const again = spawnSync('node', [...child, 'resume', database, effects, runId], { encoding: 'utf8' });
    expect(again.stdout.trim()).toBe('REFUSED already_resumed');
    const lines = readFileSync(effects, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^wired 250 by process \d+$/);
  }, 60_000);
});
