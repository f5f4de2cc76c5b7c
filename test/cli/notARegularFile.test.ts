import * as fs from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.js';
import { captureIo } from '../support/captureIo.js';
import { useFifoWithHangGuard } from '../support/fifoWithHangGuard.js';
import { useTempDir } from '../support/tempDir.js';

// Issue 31: `legate replay --merge-reports` and `legate openapi` read with readFileSync, so a FIFO waited for a
// writer and `/dev/zero` was read without end, though the trajectory reader refuses both. Both now go through the
// regular-file reader: refused in one line from what stat says, exit 2.
vi.mock('node:fs', async (original) => {
  const actual = await original<typeof import('node:fs')>();
  return { ...actual, openSync: vi.fn(actual.openSync) };
});

const tempDir = useTempDir();
const fifoWithHangGuard = useFifoWithHangGuard();

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

describe('legate openapi given something that is not a regular file', () => {
  it('refuses a FIFO in one line, exit 2, without opening it', async () => {
    const dir = tempDir();
    fifoWithHangGuard(join(dir, 'spec.json'));
    vi.mocked(fs.openSync).mockClear();
    const io = captureIo(dir);
    expect(await main(['openapi', 'spec.json'], io)).toBe(2);
    expect([...io.stdout, ...io.stderr]).toEqual([
      `legate openapi: spec.json: it is a FIFO (named pipe), ${NOT_A_FILE}`,
    ]);
    const opened = vi.mocked(fs.openSync).mock.calls.map(([path]) => String(path));
    expect(opened.filter((path) => path.endsWith('spec.json'))).toEqual([]);
  });

  it('refuses /dev/zero in one line, exit 2', async () => {
    const io = captureIo(tempDir());
    expect(await main(['openapi', '/dev/zero'], io)).toBe(2);
    expect([...io.stdout, ...io.stderr]).toEqual([
      expect.stringMatching(/^legate openapi: \/dev\/zero: it is a character device, /),
    ]);
  });
});
