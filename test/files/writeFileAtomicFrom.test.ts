import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScratchFile } from '../../src/files/scratchFile.js';
import { removeStaleTemporaryFiles, writeFileAtomicFrom } from '../../src/files/writeFileAtomic.js';
import { useTempDir } from '../support/tempDir.js';

// A file too large to hold as one string (a page of many trajectories) is written piece by piece, and still whole or
// not at all; what waits to be written meanwhile waits in a scratch file, read back as it was.

const tempDir = useTempDir();
const pieces = fc.array(fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constant('x'.repeat(70_000))), {
  maxLength: 12,
});

describe('writeFileAtomicFrom', () => {
  it('writes the pieces in order, however they are cut, and returns the bytes written', () => {
    fc.assert(
      fc.property(pieces, (given) => {
        const path = join(tempDir(), 'page.html');
        const bytes = writeFileAtomicFrom(path, given);
        expect(readFileSync(path).equals(Buffer.from(given.join(''), 'utf8'))).toBe(true);
        expect(bytes).toBe(Buffer.byteLength(given.join('')));
        expect(readdirSync(tempDir())).toEqual(['page.html']);
      }),
      { numRuns: 40 },
    );
  });

  it('leaves the old file as it was, and no temporary file, when making a piece fails', () => {
    const path = join(tempDir(), 'page.html');
    writeFileSync(path, 'the old page');
    function* failing(): Generator<string> {
      yield 'x'.repeat(100_000); // written to the temporary file already
      throw new Error('the section could not be read');
    }
    expect(() => writeFileAtomicFrom(path, failing())).toThrow('the section could not be read');
    expect(readFileSync(path, 'utf8')).toBe('the old page');
    expect(readdirSync(tempDir())).toEqual(['page.html']);
  });
});

describe('ScratchFile', () => {
  it('reads back each piece as it was appended, in any order', () => {
    fc.assert(
      fc.property(pieces, (given) => {
        const scratch = new ScratchFile(tempDir(), 'sections');
        const at = given.map((piece) => scratch.append(piece));
        expect(at.map((piece) => scratch.read(piece)).reverse()).toEqual([...given].reverse());
        scratch.remove();
        expect(readdirSync(tempDir())).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });

  it('is named as a temporary file, so one a killed process left behind is removed as theirs are', () => {
    const folder = tempDir();
    const scratch = new ScratchFile(folder, 'sections');
    const name = readdirSync(folder)[0]!;
    expect(name).toMatch(new RegExp(`^\\.sections\\.legate-tmp-${process.pid}-[0-9a-f]{8}$`));
    // Its writer still runs: left alone unless old; once its writer is gone (as after a kill), removed.
    expect(removeStaleTemporaryFiles(folder)).toEqual([]);
    expect(removeStaleTemporaryFiles(folder, 0, Date.now() + 1)).toEqual([name]);
    scratch.remove();
  });
});
