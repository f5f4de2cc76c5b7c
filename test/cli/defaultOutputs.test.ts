import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ATTACK_FOLDER } from '../../cli/commands/attack.js';
import { DEFAULT_DIFF_FILE } from '../../cli/commands/diff.js';
import { DEFAULT_VIEW_FILE } from '../../cli/commands/view.js';
import { REPORTS_FOLDER } from '../../cli/outputFile.js';

/** The paths among `paths` that this repository's .gitignore ignores. */
function ignored(paths: string[]): string[] {
  const check = spawnSync('git', ['check-ignore', '--no-index', ...paths], { encoding: 'utf8' });
  expect(check.status, check.stderr).not.toBe(128);
  return check.stdout.split('\n').filter((line) => line !== '');
}

describe('where the legate command writes when no option names a place', () => {
  it("writes reports (view's page, diff's page, attack's successful attacks) under reports/, which git ignores", () => {
    const reports = [DEFAULT_VIEW_FILE, DEFAULT_DIFF_FILE, `${DEFAULT_ATTACK_FOLDER}/suite/none/task--injection.yaml`];
    expect(reports.filter((path) => !path.startsWith(`${REPORTS_FOLDER}/`))).toEqual([]);
    expect(ignored(reports)).toEqual(reports);
  });

  it("ignores the repository's other outputs: the build, npm pack's tarball", () => {
    const outputs = ['dist/cli/legate.js', 'legate-0.1.0.tgz'];
    expect(ignored(outputs)).toEqual(outputs);
  });

  it("keeps fuzz's findings, regression tests the corpus replays, where git sees them", () => {
    expect(ignored(['trajectories/fuzz/assistant.yaml', 'trajectories/live/run.yaml'])).toEqual([]);
  });
});
