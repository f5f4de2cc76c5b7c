import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../legate.config.js';
import { loadTrajectory, runTrajectory } from '../src/index.js';

const folder = config.trajectories ?? 'trajectories';
const files = readdirSync(folder, { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.yaml'))
  .sort()
  .map((name) => join(folder, name));

describe('the shipped trajectories', () => {
  it('holds the corpus the docs promise', () => {
    expect(files.length).toBeGreaterThanOrEqual(6);
  });

  it.each(files)("%s replays against today's code", async (file) => {
    const { agent } = loadTrajectory(file);
    const factory = config.agents?.[agent];
    expect(factory, `legate.config.ts exports no agent '${agent}'`).toBeDefined();
    const run = await runTrajectory({ file, agent: factory!, mode: 'replay', rerecord: config.rerecord?.(file) });
    expect(run.mode).toBe('replay');
    expect(run.result.stopReason).toBe(run.trajectory!.summary.stopReason);
  });
});
