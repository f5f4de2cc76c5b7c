import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCalculator } from '../../examples/calculator/agent.js';
import { scenarios } from '../../examples/scenarios.js';
import {
  ScriptedTransport,
  TrajectoryNotFoundError,
  reply,
  resolveMode,
  runTrajectory,
  type Transport,
} from '../../src/index.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();
const scenario = scenarios.find((s) => s.name === 'parallel-tool-calls')!;

describe('resolveMode', () => {
  it('lets LEGATE_MODE win, defaults to replay under CI and auto elsewhere', () => {
    expect(resolveMode('record', { LEGATE_MODE: 'replay' })).toBe('replay');
    expect(resolveMode(undefined, { CI: 'true' })).toBe('replay');
    expect(resolveMode(undefined, {})).toBe('auto');
    expect(resolveMode('passthrough', {})).toBe('passthrough');
    expect(resolveMode(undefined, { CI: 'false' })).toBe('auto');
  });

  it('refuses an unknown LEGATE_MODE, listing the modes', () => {
    expect(() => resolveMode(undefined, { LEGATE_MODE: 'replya' })).toThrow(
      `LEGATE_MODE must be one of replay, record, auto, passthrough, but it was 'replya'.`,
    );
  });
});

describe('runTrajectory modes', () => {
  const options = (file: string) => ({
    file,
    agent: scenario.factory,
    input: scenario.input,
    transport: scenario.model,
  });

  it('auto records when the file is missing, and replays once it exists', async () => {
    const file = join(tempDir(), 'auto.yaml');
    expect((await runTrajectory({ ...options(file), mode: 'auto' })).mode).toBe('record');
    const live = () => {
      throw new Error('a replay must not go live');
    };
    expect((await runTrajectory({ ...options(file), mode: 'auto', transport: live })).mode).toBe('replay');
  });

  it('replay with no file says what recording needs and how: under vitest, run with LEGATE_MODE=record', async () => {
    const file = join(tempDir(), 'missing.yaml');
    const error = await runTrajectory({ ...options(file), mode: 'replay' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrajectoryNotFoundError);
    expect((error as Error).message).toBe(
      `${file} does not exist. There is no recording to replay. A live recording sends requests to the Messages ` +
        'API, so it needs ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL to send them to a proxy or a stand-in instead). ' +
        'Record it with: LEGATE_MODE=record npx vitest run',
    );
  });

  it('passthrough runs live and writes nothing', async () => {
    const file = join(tempDir(), 'pass.yaml');
    const run = await runTrajectory({ ...options(file), mode: 'passthrough' });
    expect(run.mode).toBe('passthrough');
    expect(run.result.text).toBe('Both are 42.');
    expect(existsSync(file)).toBe(false);
  });

  it('re-recording reports what changed, turn by turn', async () => {
    const file = join(tempDir(), 'rerecord.yaml');
    await runTrajectory({ ...options(file), mode: 'record' });
    const same = await runTrajectory({ ...options(file), mode: 'record' });
    expect(same.changes).toEqual([]);
    const reported: string[] = [];
    const changed = await runTrajectory({
      ...options(file),
      mode: 'record',
      transport: () =>
        new ScriptedTransport([
          reply.toolUses([{ name: 'add', input: { left: 12, right: 30 } }]),
          reply.text('It is 42.'),
        ]),
      report: (message) => reported.push(message),
    });
    expect(changed.changes?.map((c) => c.where)).toEqual(['turn 1', 'turn 2', 'summary']);
    expect(reported).toEqual([
      `re-recorded ${file}: turn 1 at content[1]; turn 2 at content[0].text; summary at usage.input`,
    ]);
  });

  it('an aborted run writes nothing and leaves no temporary file behind', async () => {
    const dir = tempDir();
    const file = join(dir, 'aborted.yaml');
    const failing: Transport = { send: async () => Promise.reject(new Error('connection reset')) };
    await expect(
      runTrajectory({ file, agent: createCalculator, input: 'x', mode: 'record', transport: () => failing }),
    ).rejects.toThrow('connection reset');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('never writes an HTTP header or a timing into the file', async () => {
    const file = join(tempDir(), 'clean.yaml');
    await runTrajectory({ ...options(file), mode: 'record' });
    const text = readFileSync(file, 'utf8').toLowerCase();
    for (const volatile of [
      'request-id',
      'x-stainless',
      'anthropic-version',
      'authorization',
      'x-api-key',
      'duration',
      'latency',
    ])
      expect(text).not.toContain(volatile);
  });
});
