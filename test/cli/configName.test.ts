import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { resolveReplaySettings } from '../../src/replay/replaySettings.js';
import type { Trajectory } from '../../src/index.js';
import { captureIo } from '../support/captureIo.js';
import { useTempDir } from '../support/tempDir.js';

// Issue 31: a message names the config file that was found (legate.config.mjs here), or legate.config.* when none was.

const tempDir = useTempDir();

/** A project whose config is legate.config.mjs and exports no agents, with a trajectory of agent 'calculator'. */
function mjsProject(edit: (text: string) => string = (text) => text): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'legate.config.mjs'), 'export default { agents: {} };\n');
  writeFileSync(join(dir, 'refusal.yaml'), edit(readFileSync('trajectories/refusal.yaml', 'utf8')));
  return dir;
}

describe('the config a message names', () => {
  it('replay names legate.config.mjs when a file names an agent it does not export', async () => {
    const io = captureIo(mjsProject());
    expect(await main(['replay', '--workers', '1', 'refusal.yaml'], io)).toBe(1);
    expect(io.text()).toContain("refusal.yaml names agent 'calculator', which legate.config.mjs does not export;");
  });

  it('replay names legate.config.mjs for a file recorded at the HTTP boundary', async () => {
    const io = captureIo(mjsProject((text) => text.replace(/^agent: /m, 'boundary: http\nagent: ')));
    expect(await main(['replay', '--workers', '1', 'refusal.yaml'], io)).toBe(1);
    expect(io.text()).toContain('no agent of legate.config.mjs made it');
  });

  it('audit names legate.config.mjs when nothing is declared', async () => {
    const io = captureIo(mjsProject());
    expect(await main(['audit', 'refusal.yaml'], io)).toBe(2);
    expect(io.text()).toContain("or write an 'audit' section in legate.config.mjs.");
  });

  it('the re-record advice names legate.config.mjs', () => {
    const dir = tempDir();
    const project = { root: dir, configFile: join(dir, 'legate.config.mjs'), config: { agents: {} } };
    const trajectory = { agent: 'billing' } as Trajectory;
    const settings = resolveReplaySettings({
      project,
      trajectory,
      cwd: dir,
      runner: { kind: 'code' },
      given: { file: 'a.yaml' },
    });
    expect(settings.rerecord).toContain("add a factory for agent 'billing' to the agents of legate.config.mjs and");
  });

  it('with no config, says no legate.config.* was found', async () => {
    const io = captureIo(tempDir());
    expect(await main(['replay'], io)).toBe(2);
    expect(io.stderr).toEqual([expect.stringContaining('legate.config.* was not found in')]);
  });
});
