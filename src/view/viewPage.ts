import { tmpdir } from 'node:os';
import { ScratchFile, type ScratchPiece } from '../files/scratchFile.js';
import { writeFileAtomicFrom } from '../files/writeFileAtomic.js';
import { PageRuns } from './pageRuns.js';
import type { ViewEntry } from './verdict.js';

export interface ViewPageOptions {
  /** The page's heading and title; by default the file's name, or how many files. */
  title?: string;
  /**
   * The folder where each run's section waits on disk until the page is written: they take about as much space as the
   * page will. By default the system's temporary folder; the CLI gives the page's own folder.
   */
  scratch?: string;
}

/**
 * The page {@link viewHtml} makes, for any number of trajectories: added one at a time and written to its file piece
 * by piece, so that neither the page nor the trajectories are ever held. What it keeps of a run is its index row and
 * its section's ids (under a kilobyte for a run of the shipped trajectories' size); each section is made when its run
 * is added and waits in a scratch file until the page is written, then is read back one at a time. A page whose
 * sections come to more than two million characters keeps each one inert until it is opened (docs/viewer.md).
 *
 * ```ts
 * const page = new ViewPage({ title: 'Nightly', scratch: 'reports' });
 * for (const file of files) page.add({ file, trajectory: loadTrajectory(file) });
 * page.write('reports/nightly.html'); // whole or not at all; the scratch file is removed
 * ```
 */
export class ViewPage {
  readonly #runs: PageRuns<ScratchPiece>;
  readonly #folder: string;
  #scratch: ScratchFile | undefined;

  constructor(options: ViewPageOptions = {}) {
    this.#folder = options.scratch ?? tmpdir();
    this.#runs = new PageRuns(options.title, (body) => this.#scratchFile().append(body));
  }

  /** How many runs were added. */
  get count(): number {
    return this.#runs.count;
  }

  /** A run of the page; nothing of `entry` is kept beyond its row and ids. */
  add(entry: ViewEntry): void {
    this.#runs.add(entry);
  }

  /**
   * Writes the page to `path`, whole or not at all (a temporary file beside it, renamed into place), and removes the
   * scratch file, whether or not it could be written. Returns the page's size in bytes.
   */
  write(path: string): number {
    try {
      return writeFileAtomicFrom(path, this.chunks());
    } finally {
      this.dispose();
    }
  }

  /** The page, piece by piece (for a stream of your own); call {@link dispose} once done with it. */
  chunks(): Generator<string> {
    return this.#runs.chunks((piece) => this.#scratch!.read(piece));
  }

  /** Removes the scratch file (write does); the page can no longer be written. */
  dispose(): void {
    this.#scratch?.remove();
  }

  #scratchFile(): ScratchFile {
    this.#scratch ??= new ScratchFile(this.#folder, 'legate-view-sections');
    return this.#scratch;
  }
}
