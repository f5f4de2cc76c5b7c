import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileStateStore } from '../../src/index.js';
import { FileReadError } from '../../src/files/readRegularFile.js';
import { useFifoWithHangGuard } from '../support/fifoWithHangGuard.js';
import { aSuspension } from '../support/suspendedPayment.js';
import { useTempDir } from '../support/tempDir.js';

// Issue 31: the file store reads its records like every other file legate reads: only a regular file. A FIFO named
// like a record in its folder is refused when loaded and skipped when listed, never waited on.
const tempDir = useTempDir();
const fifoWithHangGuard = useFifoWithHangGuard();

describe('a FIFO in a file store folder', () => {
  it('is refused by load, and skipped by list', async () => {
    const dir = tempDir();
    const store = new FileStateStore(dir);
    const suspension = await aSuspension();
    await store.save(suspension);
    fifoWithHangGuard(join(dir, 'stray.json'));
    const error = await store.load('stray').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FileReadError);
    expect((error as FileReadError).code).toBe('not_a_file');
    expect(await store.list()).toEqual([suspension.runId]);
  });
});
