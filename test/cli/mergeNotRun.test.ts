import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { blobText } from '../../cli/replay/replayBlob.js';
import { captureIo } from '../support/captureIo.js';
import { useTempDir } from '../support/tempDir.js';

// Issue 31: files no shard's blob records were not run because of --bail only when --bail was given.

const tempDir = useTempDir();

/** A project of four files whose agent the config does not export (each fails at once), replayed in 2 shards. */
async function shardedProject(bail: string[]): Promise<string> {
  const dir = tempDir();
  writeFileSync(join(dir, 'legate.config.mjs'), 'export default { agents: {} };\n');
  const text = readFileSync('trajectories/refusal.yaml', 'utf8');
  for (const name of ['a', 'b', 'c', 'd']) writeFileSync(join(dir, `${name}.yaml`), text);
  for (const index of [1, 2]) {
    const args = ['replay', '.', '--workers', '1', '--shard', `${index}/2`, '--reporter', 'blob'];
    await main([...args, '--output', `s-${index}.json`, ...bail], captureIo(dir));
  }
  return dir;
}

/** A shard's blob written whole but recording nothing (its digest matches: as a faulty writer would leave it). */
function emptyRecords(dir: string, file: string): void {
  const blob = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  writeFileSync(join(dir, file), blobText(blob, []));
}

describe('merging a shard whose blob records nothing', () => {
  it('without --bail: its files are not run, not said to be left by --bail, and the merge exits 2', async () => {
    const dir = await shardedProject([]);
    emptyRecords(dir, 's-2.json');
    const io = captureIo(dir);
    expect(await main(['replay', '--merge-reports', 's-1.json', 's-2.json'], io)).toBe(2);
    expect(io.stdout.at(-1)).toBe("2 replayed: 0 passed, 2 failed, 2 not run (in no shard's blob)");
  });

  it('with --bail: the files after the first failure are still said to be left by --bail', async () => {
    const dir = await shardedProject(['--bail']);
    const io = captureIo(dir);
    expect(await main(['replay', '--merge-reports', 's-1.json', 's-2.json'], io)).toBe(1);
    expect(io.stdout.at(-1)).toBe('1 replayed: 0 passed, 1 failed, 3 not run (--bail)');
  });
});
