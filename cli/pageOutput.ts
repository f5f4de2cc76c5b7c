import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ViewPage, type ViewEntry } from '../src/view/index.js';
import { isSystemError } from './fileProblem.js';
import { notWritten, writeOutput, type OutputTarget } from './outputFile.js';

/**
 * The HTML page of `legate view` and `legate replay --reporter html`, made as the files come: each is added and let
 * go, its section set aside in a scratch file beside the page (the system's temporary folder for standard output), so
 * that a corpus of any size makes its page in the memory of its index. A scratch file that cannot be written (a full
 * disk, a folder that takes no file) stops the page, not the command: its one line comes when the page is written, as
 * a page that cannot be written says it.
 */
export class PageOutput {
  readonly #option: string;
  readonly #what: string;
  readonly #target: OutputTarget;
  readonly #page: ViewPage;
  #failed: { error: unknown } | undefined;

  /** `option` names the target, `what` the page in a problem's line ('page', 'report'). */
  constructor(option: string, what: string, target: OutputTarget, title?: string) {
    this.#option = option;
    this.#what = what;
    this.#target = target;
    this.#page = new ViewPage({
      ...(title === undefined ? {} : { title }),
      ...(target.kind === 'file' ? { scratch: dirname(target.path) } : {}),
    });
    if (target.kind === 'file' && target.makeFolder === true)
      this.#attempt(() => mkdirSync(dirname(target.path), { recursive: true }));
  }

  add(entry: ViewEntry): void {
    if (this.#failed === undefined) this.#attempt(() => this.#page.add(entry));
  }

  /** Writes the page (see writeOutput) and removes the scratch file: the bytes written, or the one-line problem. */
  write(out: (text: string) => void): number | string {
    try {
      if (this.#failed !== undefined && this.#target.kind === 'file')
        return notWritten(this.#option, this.#what, this.#target, this.#failed.error);
      if (this.#failed !== undefined) throw this.#failed.error;
      return writeOutput(this.#option, this.#what, this.#target, this.#page.chunks(), out);
    } finally {
      this.#page.dispose();
    }
  }

  /** Removes the scratch file, when the page is not to be written after all. */
  dispose(): void {
    this.#page.dispose();
  }

  /** Runs `act`, keeping a system error (a file that could not be made or written) for {@link write} to tell. */
  #attempt(act: () => void): void {
    try {
      act();
    } catch (error) {
      if (!isSystemError(error)) throw error;
      this.#failed = { error };
    }
  }
}
