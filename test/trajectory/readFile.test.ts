import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_TRAJECTORY_BYTES,
  TrajectoryFileError,
  TrajectoryFormatError,
  TrajectoryNotFoundError,
  loadTrajectory,
  runTrajectory,
} from '../../src/index.js';
import { FileReadError, readRegularFile } from '../../src/files/readRegularFile.js';
import { createOrderDesk } from '../../examples/orders/agent.js';
import { caught } from '../support/caught.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();
const onPosix = process.platform !== 'win32';

describe('loadTrajectory reads only regular files', () => {
  it.runIf(onPosix)('refuses a FIFO named *.yaml at once, naming it, instead of waiting for a writer', () => {
    const fifo = join(tempDir(), 'pipe.yaml');
    execFileSync('mkfifo', [fifo]);
    const error = caught(() => loadTrajectory(fifo), TrajectoryFileError);
    expect(error.code).toBe('not_a_file');
    expect(error.file).toBe(fifo);
    expect(error.message).toBe(
      `${fifo}: it is a FIFO (named pipe), not a regular file; only a regular file (or a link to one) is read.`,
    );
  });

  it.runIf(onPosix)('refuses a replay of a FIFO the same way', async () => {
    const fifo = join(tempDir(), 'pipe.yaml');
    execFileSync('mkfifo', [fifo]);
    const error = await runTrajectory({ file: fifo, agent: createOrderDesk, mode: 'replay' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrajectoryFileError);
    expect((error as TrajectoryFileError).code).toBe('not_a_file');
  });

  it.runIf(onPosix)(
    'refuses a symbolic link to /dev/zero, whose size the system reports as 0, before reading a byte',
    () => {
      const link = join(tempDir(), 'zero.yaml');
      symlinkSync('/dev/zero', link);
      const error = caught(() => loadTrajectory(link), TrajectoryFileError);
      expect(error.code).toBe('not_a_file');
      expect(error.problem).toContain('a character device');
    },
  );

  it('refuses a directory named x.yaml', () => {
    const directory = join(tempDir(), 'x.yaml');
    mkdirSync(directory);
    const error = caught(() => loadTrajectory(directory), TrajectoryFileError);
    expect(error.code).toBe('not_a_file');
    expect(error.message).toBe(
      `${directory}: it is a directory, not a regular file; only a regular file (or a link to one) is read.`,
    );
  });

  it.runIf(onPosix)('says why a file cannot be opened: a symbolic link loop', () => {
    const loop = join(tempDir(), 'loop.yaml');
    symlinkSync(loop, loop);
    const error = caught(() => loadTrajectory(loop), TrajectoryFileError);
    expect(error.code).toBe('unreadable');
    expect(error.message).toMatch(
      new RegExp(`^${loop.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: it could not be opened: .*\\(ELOOP\\)\\.$`),
    );
  });

  it('reads a regular file through a symbolic link', () => {
    const file = join(tempDir(), 'real.yaml');
    copyFileSync('trajectories/tool-loop.yaml', file);
    const link = join(tempDir(), 'link.yaml');
    symlinkSync(file, link);
    expect(loadTrajectory(link).name).toBe('tool-loop');
  });

  it('still reports a missing file as not found, with what recording needs and how to record it', () => {
    const file = join(tempDir(), 'absent.yaml');
    const { message } = caught(() => loadTrajectory(file), TrajectoryNotFoundError);
    expect(message).toMatch(new RegExp(`^${file} does not exist\\. There is no recording to replay\\. `));
    expect(message).toContain('needs ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL to send them to a proxy');
    expect(message).toMatch(/ Record it with: run this program again with LEGATE_MODE=record set$/);
  });

  it('refuses a file over the size limit, as a format error without a line', () => {
    const file = join(tempDir(), 'big.yaml');
    writeFileSync(file, readFileSync('trajectories/tool-loop.yaml'));
    truncateSync(file, MAX_TRAJECTORY_BYTES + 1); // sparse: the rest reads as zero bytes
    const error = caught(() => loadTrajectory(file), TrajectoryFormatError);
    expect(error).toBeInstanceOf(TrajectoryFileError);
    expect((error as TrajectoryFileError).code).toBe('too_large');
    expect(error.line).toBeUndefined();
    expect(error.message).toContain(`over the ${MAX_TRAJECTORY_BYTES}-byte limit`);
  });
});

describe('readRegularFile', () => {
  it('enforces the limit on the bytes read: a file of exactly the limit is read, one byte more is refused', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300_000 }), fc.integer({ min: 0, max: 300_000 }), (length, limit) => {
        const file = join(tempDir(), 'f.txt');
        const content = Buffer.alloc(length, 'a');
        writeFileSync(file, content);
        if (length <= limit) expect(readRegularFile(file, limit)).toBe(content.toString('utf8'));
        else expect(caught(() => readRegularFile(file, limit), FileReadError).code).toBe('too_large');
      }),
      { numRuns: 40 },
    );
  });

  it.runIf(onPosix)('refuses a device that never ends before reading from it', () => {
    expect(caught(() => readRegularFile('/dev/zero', 10), FileReadError).code).toBe('not_a_file');
  });

  it.runIf(process.platform === 'linux')('reads a file that reports no size (procfs) to its end', () => {
    const text = readRegularFile('/proc/self/maps', 10_000_000);
    expect(text.length).toBeGreaterThan(0);
    expect(text.endsWith('\n')).toBe(true);
    expect(text.split('\n').length).toBeGreaterThan(5);
  });

  it('keeps the bytes of a multi-byte text, split across reads', () => {
    const file = join(tempDir(), 'u.txt');
    const text = 'é\u{1F600}'.repeat(50_000);
    writeFileSync(file, text);
    expect(readRegularFile(file, 1_000_000)).toBe(text);
  });
});
