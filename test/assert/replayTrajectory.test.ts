import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../src/assert/vitest.js';
import { replayTrajectory } from '../../src/assert/vitest.js';
import { createAssistant } from '../../examples/payments/agent.js';
import { scenarios } from '../../examples/scenarios.js';
import { TrajectoryNotFoundError } from '../../src/index.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();
afterEach(() => vi.unstubAllEnvs());

describe('replayTrajectory, the CI regression helper', () => {
  it('replays a trajectory and returns the result for assertions', async () => {
    const result = await replayTrajectory(createAssistant, 'trajectories/zero-trust.yaml');
    expect(result).toHaveBlocked('send_payment', { rule: 'taint', source: 'fetch_page' });
  });

  it('under CI, fails on a missing file with the command that records it', async () => {
    vi.stubEnv('CI', 'true');
    vi.stubEnv('LEGATE_MODE', '');
    const file = join(tempDir(), 'missing.yaml');
    const error = await replayTrajectory(createAssistant, file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrajectoryNotFoundError);
    const command = 'npx vitest run test/assert/replayTrajectory.test.ts -u';
    expect((error as Error).message).toMatch(
      new RegExp(`^${file} does not exist\\. .*ANTHROPIC_API_KEY.*: ${command}$`),
    );
  });

  it('with LEGATE_MODE set, which -u cannot override, says to set it to record instead', async () => {
    vi.stubEnv('LEGATE_MODE', 'replay');
    const file = join(tempDir(), 'missing.yaml');
    const error = await replayTrajectory(createAssistant, file).catch((e: unknown) => e);
    const command = 'LEGATE_MODE=record npx vitest run test/assert/replayTrajectory.test.ts';
    expect((error as Error).message).toMatch(
      new RegExp(`^${file} does not exist\\. .*ANTHROPIC_API_KEY.*: ${command}$`),
    );
  });

  it('that command works: under LEGATE_MODE=record the same call records the file', async () => {
    vi.stubEnv('LEGATE_MODE', 'record');
    const file = join(tempDir(), 'recorded.yaml');
    const scenario = scenarios.find((s) => s.name === 'zero-trust')!;
    const options = {
      input: scenario.input,
      transport: scenario.model,
      mode: 'replay' as const,
      report: false as const,
    };
    await replayTrajectory(createAssistant, file, options);
    expect(readFileSync(file, 'utf8')).toContain('name: recorded');
  });

  it('with LEGATE_MODE=record, re-records the file and reports what changed', async () => {
    vi.stubEnv('LEGATE_MODE', 'record');
    const file = join(tempDir(), 'zero-trust.yaml');
    copyFileSync('trajectories/zero-trust.yaml', file);
    const scenario = scenarios.find((s) => s.name === 'zero-trust')!;
    const reported: string[] = [];
    const result = await replayTrajectory(createAssistant, file, {
      transport: scenario.model,
      report: (m) => reported.push(m),
    });
    expect(result).toBeTainted();
    expect(reported).toEqual([]); // same behaviour, so the file is left as it was
    expect(readFileSync(file, 'utf8')).toBe(readFileSync('trajectories/zero-trust.yaml', 'utf8'));
  });

  it('under vitest -u, re-records the file', async () => {
    vi.stubEnv('LEGATE_MODE', undefined);
    const state = expect.getState().snapshotState as unknown as { _updateSnapshot: string };
    const before = state._updateSnapshot;
    state._updateSnapshot = 'all'; // what \`vitest -u\` sets
    try {
      const file = join(tempDir(), 'fresh.yaml');
      copyFileSync('trajectories/zero-trust.yaml', file);
      const scenario = scenarios.find((s) => s.name === 'zero-trust')!;
      const changed = () => {
        const model = scenario.model();
        return {
          send: (request: Parameters<typeof model.send>[0], options?: Parameters<typeof model.send>[1]) =>
            model.send({ ...request }, options).then((r) => ({ ...r, id: `${r.id}_new` })),
        };
      };
      const reported: string[] = [];
      await replayTrajectory(createAssistant, file, { transport: changed, report: (m) => reported.push(m) });
      expect(reported).toEqual([
        `re-recorded ${file}: turn 1 at response.id; turn 2 at response.id; turn 3 at response.id`,
      ]);
    } finally {
      state._updateSnapshot = before;
    }
  });
});
