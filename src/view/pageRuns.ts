import { Anchors } from './anchors.js';
import type { DivergenceMark } from './divergenceHtml.js';
import { FAILED, indexHtml, indexRow, tallyHtml, verdictText } from './indexRows.js';
import { PAGE_END, pageStart } from './pageHtml.js';
import { inertSection, openSection, sectionParts } from './sectionHtml.js';
import type { ViewEntry } from './verdict.js';
import { viewModel } from './viewModel.js';

/**
 * Sections, in characters, that a page lays out as it opens. Beyond it (some 600 runs of the shipped trajectories'
 * size), each run's section is set aside, inert, until a link opens it: a browser parsed and laid out the sections of
 * 20,000 runs in minutes and 3 GB, while the same page with its sections set aside opened in seconds
 * (docs/scale.md has the figures).
 */
export const OPEN_SECTIONS_UP_TO = 2_000_000;

/** A run of the page: what the index needs (its row, its verdict), its section's element, and where its content is. */
interface PageRun<Held> {
  row: string;
  status: string;
  /** Its section's attributes, the ids its content holds (separated by spaces), and where its content is. */
  section: { attributes: string; anchors: string; held: Held };
}

/**
 * The runs of a page as they are added, one at a time, and the page they make, piece by piece: the index (a row per
 * run, those that did not pass first), then each run's section in the same order. A run's section is made when it is
 * added and handed to `setAside` (kept as it is, or written to disk); what the page keeps of a run is its row, its
 * section's element and ids: small, whatever the trajectory. `read` gives a section back when the page is written,
 * one at a time.
 */
export class PageRuns<Held> {
  readonly #anchors = new Anchors();
  readonly #runs: PageRun<Held>[] = [];
  readonly #title: string | undefined;
  readonly #setAside: (body: string) => Held;
  #firstFile: string | undefined;
  #sectionChars = 0;

  constructor(title: string | undefined, setAside: (body: string) => Held) {
    this.#title = title;
    this.#setAside = setAside;
  }

  get count(): number {
    return this.#runs.length;
  }

  add(entry: ViewEntry): void {
    this.#firstFile ??= entry.file;
    const item = {
      entry,
      model: entry.trajectory === undefined ? undefined : viewModel(entry.trajectory, entry.audit),
      anchor: this.#anchors.unique(`trajectory-${sectionName(entry.file)}`),
    };
    const { attributes, body } = sectionParts(item, this.#anchors, divergenceMark(entry));
    const anchors = this.#anchors
      .takeGiven()
      .filter((anchor) => anchor !== item.anchor)
      .join(' ');
    this.#sectionChars += body.length;
    const held = this.#setAside(body);
    this.#runs.push({ row: indexRow(item), status: verdictText(entry).status, section: { attributes, anchors, held } });
  }

  /**
   * The page, piece by piece. Its sections are laid out as it opens when they come to at most
   * {@link OPEN_SECTIONS_UP_TO} characters, else set aside inert (`open` decides it otherwise).
   */
  *chunks(read: (held: Held) => string, open = this.#sectionChars <= OPEN_SECTIONS_UP_TO): Generator<string> {
    const runs = [
      ...this.#runs.filter((run) => FAILED.has(run.status)),
      ...this.#runs.filter((run) => !FAILED.has(run.status)),
    ];
    yield pageStart(this.#title ?? this.#defaultTitle(), NAV);
    yield tallyHtml(runs.map((run) => run.status));
    yield* indexHtml(runs.map((run) => run.row));
    if (runs.length === 0) yield '<p class="note">No trajectories were given.</p>';
    for (const { section } of runs) {
      const parts = { attributes: section.attributes, body: read(section.held) };
      yield open ? openSection(parts) : inertSection(parts, section.anchors);
    }
    yield PAGE_END;
  }

  #defaultTitle(): string {
    if (this.#runs.length === 1) return `Trajectory ${this.#firstFile}`;
    return `${this.#runs.length} trajectories`;
  }
}

const NAV =
  '<nav aria-label="Trajectories">' +
  '<label for="filter">Filter trajectories</label>' +
  '<input type="search" id="filter" aria-label="Filter trajectories" placeholder="file, agent, outcome…">' +
  '<span id="filter-status" role="status" aria-live="polite"></span>' +
  '<span id="tools"></span>' +
  '</nav>';

function divergenceMark(entry: ViewEntry): DivergenceMark | undefined {
  return entry.verdict?.status === 'diverged' ? entry.verdict.divergence : undefined;
}

/** A file name as the tail of an element id: its last path segment without `.yaml`, in safe characters. */
function sectionName(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.replace(/\.ya?ml$/i, '').replace(/[^A-Za-z0-9_-]/g, '_') || 'file';
}
