import { closeSync, openSync, readSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { temporaryPathBeside, writeAll } from './writeFileAtomic.js';

/** Where a piece of text set aside in a {@link ScratchFile} is: its first byte and its length in bytes. */
export interface ScratchPiece {
  at: number;
  bytes: number;
}

/**
 * Text set aside on disk while more is made, to be read back later piece by piece: what a page of many trajectories
 * cannot hold in memory until it is written (each run's section, made before the index that comes first). Named as
 * {@link writeFileAtomic}'s temporary files are, so one that a killed process left behind is recognised and removed
 * as theirs are; {@link ScratchFile.remove} removes it otherwise.
 */
export class ScratchFile {
  readonly path: string;
  readonly #fd: number;
  #end = 0;
  #removed = false;

  /** A new, empty scratch file in `folder` (which must exist), its name starting with `name`. */
  constructor(folder: string, name: string) {
    this.path = temporaryPathBeside(join(folder, name));
    this.#fd = openSync(this.path, 'wx+');
  }

  /** Appends `text` (UTF-8); where it is, to read it back. */
  append(text: string): ScratchPiece {
    const piece = { at: this.#end, bytes: writeAll(this.#fd, text) };
    this.#end += piece.bytes;
    return piece;
  }

  /** A piece appended before, as it was. */
  read(piece: ScratchPiece): string {
    const buffer = Buffer.allocUnsafe(piece.bytes);
    for (let done = 0; done < piece.bytes; ) {
      const read = readSync(this.#fd, buffer, done, piece.bytes - done, piece.at + done);
      if (read === 0) throw new Error(`${this.path} ended before byte ${piece.at + piece.bytes}`);
      done += read;
    }
    return buffer.toString('utf8');
  }

  /** Closes and removes the file; again, nothing. */
  remove(): void {
    if (this.#removed) return;
    this.#removed = true;
    closeSync(this.#fd);
    rmSync(this.path, { force: true });
  }
}
