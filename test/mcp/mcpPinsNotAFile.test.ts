import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileReadError } from '../../src/files/readRegularFile.js';
import { readPins } from '../../src/mcp/mcpPins.js';
import { useFifoWithHangGuard } from '../support/fifoWithHangGuard.js';
import { useTempDir } from '../support/tempDir.js';

// Issue 31: a pin file is read like every other file legate reads by a path it was given: only a regular file.
const tempDir = useTempDir();
const fifoWithHangGuard = useFifoWithHangGuard();

describe('a pin file that is not a regular file', () => {
  it.each([
    ['a FIFO', () => join(tempDir(), 'pins.json'), 'a FIFO (named pipe)'],
    ['/dev/zero', () => '/dev/zero', 'a character device'],
  ])('%s is refused, not waited on or read without end', (_, path, kind) => {
    const file = path();
    if (file !== '/dev/zero') fifoWithHangGuard(file);
    const error = (() => {
      try {
        return readPins(file);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(FileReadError);
    expect((error as FileReadError).code).toBe('not_a_file');
    expect((error as FileReadError).message).toBe(
      `${file}: it is ${kind}, not a regular file; only a regular file (or a link to one) is read.`,
    );
  });

  it('an absent pin file is still no pins', () => {
    expect(readPins(join(tempDir(), 'none.json'))).toBeUndefined();
  });
});
