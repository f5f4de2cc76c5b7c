import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.js';
import { captureIo } from '../support/captureIo.js';
import { useTempDir } from '../support/tempDir.js';

// Issue 31: `legate replay --merge-reports` read its blobs with readFileSync, so a FIFO waited for a writer and
// `/dev/zero` was read without end, though the trajectory reader refuses both. Every blob now goes through the
// regular-file reader: refused in one line from what stat says, exit 2.
vi.mock('node:fs', async (original) => {
  const actual = await original<typeof import('node:fs')>();
  return { ...actual, openSync: vi.fn(actual.openSync) };
});

const tempDir = useTempDir();
const guards: number[] = [];
afterEach(() => {
  for (const pid of guards.splice(0)) {
    try {
      process.kill(-pid);
    } catch {
      // It already wrote and ended: only then did a reader open the FIFO.
    }
  }
});

/**
 * A FIFO, with a writer that releases a reader blocked on it after a while (a blocking read stops the whole thread,
 * so no test timeout could end it): a reader that waits fails on what it read, never hangs the suite. A reader that
 * refuses the FIFO never opens it, and the writer is ended after the test.
 */
function fifoWithHangGuard(path: string): void {
  execFileSync('mkfifo', [path]);
  const writer = spawn('sh', ['-c', 'sleep 10; printf "{}" > "$0"', path], { stdio: 'ignore', detached: true });
  guards.push(writer.pid!);
}

async function merge(dir: string, ...paths: string[]) {
  const io = captureIo(dir);
  const code = await main(['replay', '--merge-reports', ...paths], io);
  return { code, lines: [...io.stdout, ...io.stderr] };
}

const NOT_A_FILE = 'not a regular file; only a regular file (or a link to one) is read.';

describe('--merge-reports given something that is not a regular file', () => {
  it('refuses a FIFO blob in one line, exit 2, without opening it', async () => {
    const dir = tempDir();
    fifoWithHangGuard(join(dir, 'shard-1.json'));
    vi.mocked(fs.openSync).mockClear();
    expect(await merge(dir, 'shard-1.json')).toEqual({
      code: 2,
      lines: [`legate replay: --merge-reports: shard-1.json: it is a FIFO (named pipe), ${NOT_A_FILE}`],
    });
    const opened = vi.mocked(fs.openSync).mock.calls.map(([path]) => String(path));
    expect(opened.filter((path) => path.endsWith('shard-1.json'))).toEqual([]);
  });

  it('refuses a FIFO among the *.json of a folder the same way', async () => {
    const dir = tempDir();
    fs.mkdirSync(join(dir, 'blobs'));
    fifoWithHangGuard(join(dir, 'blobs', 'shard-1.json'));
    expect(await merge(dir, 'blobs')).toEqual({
      code: 2,
      lines: [`legate replay: --merge-reports: blobs/shard-1.json: it is a FIFO (named pipe), ${NOT_A_FILE}`],
    });
  });

  it('refuses /dev/zero in one line, exit 2, before reading a byte', async () => {
    expect(await merge(tempDir(), '/dev/zero')).toEqual({
      code: 2,
      lines: [expect.stringMatching(/^legate replay: --merge-reports: \S*dev\/zero: it is a character device, /)],
    });
  });
});
