import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.js';
import { captureIo } from '../support/captureIo.js';
import { useTempDir } from '../support/tempDir.js';

// Every open legate makes is watched: a FIFO must be refused from its stat, never opened (opening one for
// reading releases a writer waiting on it, and without O_NONBLOCK would wait for one).
vi.mock('node:fs', async (original) => {
  const actual = await original<typeof import('node:fs')>();
  return { ...actual, openSync: vi.fn(actual.openSync) };
});

const tempDir = useTempDir();

describe('a FIFO where a trajectory file is expected', () => {
  it.each(['validate', 'show', 'replay'])('%s refuses it in one line without opening it', async (verb) => {
    const dir = tempDir();
    fs.mkdirSync(join(dir, 't'));
    execFileSync('mkfifo', [join(dir, 't', 'pipe.yaml')]);
    // replay needs a config to start; none of its agents is reached.
    fs.writeFileSync(join(dir, 'legate.config.mjs'), 'export default { agents: {} };\n');
    vi.mocked(fs.openSync).mockClear();
    const io = captureIo(dir);
    expect(await main([verb, 't/pipe.yaml'], io)).toBe(2);
    const lines = [...io.stderr, ...io.stdout].filter((line) => line.includes('t/pipe.yaml'));
    expect(lines).toEqual([
      expect.stringMatching(/^(✗ )?t\/pipe\.yaml: it is a FIFO \(named pipe\), not a regular file/),
    ]);
    const opened = vi.mocked(fs.openSync).mock.calls.map(([path]) => String(path));
    expect(opened.filter((path) => path.endsWith('pipe.yaml'))).toEqual([]);
  });
});
