import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { closingVerdict } from '../scripts/closing-line.js';
import { childOutput } from './support/childOutput.js';
import { SHARED_BUILD } from './support/packageBuild.js';

// A green that lies is worse than none. The suite's own configuration (vitest.config.ts: its global setup, setup files
// and reporters) run as `npm test` runs it, as a process of its own, on fixtures that fail on purpose: the exit code
// and the closing line must both say so. (Once, the suite's PostgreSQL server's exit hook turned every exit code to 0.)

const FIXTURES = 'test/fixtures/failing-suite';

/** `vitest run` with the fixtures' configuration, in a process of its own: its exit code is the subject. */
async function runFailingSuite(): Promise<{ code: number | null; output: string }> {
  const vitest = resolve('node_modules/vitest/vitest.mjs');
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', CI: 'true' };
  // The run this test is part of marks its workers; the fixture run is a fresh one, as from a shell, but for the
  // package's build, which it shares with this run (another build would rewrite dist/ under other tests' feet).
  for (const name of Object.keys(env)) if (name === 'VITEST' || name.startsWith('VITEST_')) delete env[name];
  env[SHARED_BUILD] = inject('packageBuildStatus');
  const child = spawn(process.execPath, [vitest, 'run', '--config', `${FIXTURES}/vitest.config.ts`], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { status, stdout, stderr } = await childOutput(child);
  return { code: status, output: `${stdout}${stderr}` };
}

describe("the suite's exit code and closing line", () => {
  it('a failing test and a file that cannot load: exit code 1, and the closing line counts both failures', async () => {
    const { code, output } = await runFailingSuite();
    const closing = output.match(/^\d+ passed, \d+ failed.*$/gm);
    expect(closing, output).toEqual(['1 passed, 2 failed']);
    expect(code, output).toBe(1);
  }, 240_000);

  it('the fixtures are deliberately failing and kept out of the suite', () => {
    expect(readFileSync(`${FIXTURES}/fails.fixture.ts`, 'utf8')).toContain('expect(1).toBe(2)');
    const config = readFileSync('vitest.config.ts', 'utf8');
    expect(config).toMatch(/include: \['test\/\*\*\/\*\.test\.ts'\]/);
  });
});

describe('scripts/closing-line.ts, which CI runs on the suite output', () => {
  it.each([
    ['3376 passed, 0 failed, 2 skipped', true],
    ['\u001b[32m12 passed, 0 failed\u001b[39m', true],
    ['0 passed, 2 failed', false],
    ['3374 passed, 1 failed, 2 skipped', false],
    ['0 passed, 0 failed', false],
    ['Tests 12 passed (12)', false],
    ['', false],
  ])('%j is ok: %s', (output, ok) => {
    expect(closingVerdict(`some output\n${output}\n`).ok).toBe(ok);
  });

  it('reads the last closing line of the output', () => {
    expect(closingVerdict('1 passed, 0 failed\n5 passed, 1 failed\n')).toMatchObject({ ok: false });
    expect(closingVerdict('5 passed, 1 failed\n6 passed, 0 failed\n')).toEqual({ ok: true, passed: 6, failed: 0 });
  });
});
