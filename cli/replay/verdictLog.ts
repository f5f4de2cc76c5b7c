import type { CliIo } from '../io.js';
import { terminalLines, terminalText } from '../terminalText.js';
import type { ReplayReport } from './replayReport.js';
import type { PathProblems, Verdict } from './fileVerdict.js';

/**
 * Files of the corpus that were not run: after the first failure with --bail, or (merging shards) files that no
 * shard's blob records at all, which is bad input (a blob emptied or cut short), never a pass.
 */
interface NotRun {
  afterBail: number;
  unrecorded?: number;
}

/**
 * The verdict lines and the summary of one `legate replay`, whoever replayed the files (this process, worker
 * threads, or shards whose reports are merged): one line per file in file order, a summary, and the exit code.
 */
export class VerdictLog {
  #run = 0;
  #failed = 0;
  #notRead = 0;
  /** Files of several samples, for --flakiness: the file and its counts, in file order. */
  readonly #sampled: { file: string; samples: NonNullable<Verdict['samples']> }[] = [];
  readonly #out: (text: string) => void;

  constructor(
    private readonly io: CliIo,
    private readonly report: ReplayReport,
    private readonly options: { flakiness?: boolean } = {},
  ) {
    this.#out = report.verdictsTo(io);
  }

  /** A file's verdict: its line, and its case in the report. */
  file(file: string, verdict: Verdict, seconds: number): void {
    const { io } = this;
    this.report.file(file, verdict, seconds);
    this.#run++;
    if (!verdict.ok) this.#failed++;
    if (verdict.notRead === true) this.#notRead++;
    if (verdict.samples !== undefined) this.#sampled.push({ file, samples: verdict.samples });
    // The file's name and what its verdict quotes of it are escaped: a file cannot rewrite its own line.
    const [shown, detail] = [terminalText(file), terminalLines(verdict.detail)];
    if (verdict.ok) this.#out(`${io.paint('green', '✓')} ${shown}  ${io.paint('dim', terminalText(verdict.detail))}`);
    else if (verdict.unreadable) this.#out(`${io.paint('red', '✗')} ${detail}`);
    else this.#out(`${io.paint('red', '✗')} ${shown}\n${indent(detail)}`);
  }

  /** Prints the summary, writes the report; the exit code. */
  finish(verb: string, problems: PathProblems, notRun: NotRun): number {
    const { afterBail, unrecorded = 0 } = notRun;
    const { missing, unreadable } = problems;
    this.#out('');
    const missingNote = missing.length > 0 ? `, ${missing.length} missing` : '';
    const folders = unreadable.length === 1 ? 'folder' : 'folders';
    const unreadableNote = unreadable.length > 0 ? `, ${unreadable.length} unreadable ${folders}` : '';
    const bailNote = afterBail > 0 ? `, ${afterBail} not run (--bail)` : '';
    const unrecordedNote = unrecorded > 0 ? `, ${unrecorded} not run (in no shard's blob)` : '';
    const notes = `${missingNote}${unreadableNote}${bailNote}${unrecordedNote}`;
    const passed = this.#run - this.#failed;
    this.#out(`${this.#run} ${verb}: ${passed} passed, ${this.#failed} failed${notes}`);
    if (this.options.flakiness === true) this.#out(`\n${flakinessTable(this.#sampled)}`);
    // A path that could not be read at all is bad input (2), as for every verb; a file that failed is the finding (1).
    const unusable = this.#notRead + missing.length + unreadable.length + unrecorded > 0;
    return this.report.finish(unusable ? 2 : this.#failed > 0 ? 1 : 0, this.io);
  }
}

/**
 * --flakiness: each file of several samples, how many passed and which failed, the least stable first (then in
 * file order), so a corpus's flaky behaviours are read off one table.
 */
function flakinessTable(files: { file: string; samples: NonNullable<Verdict['samples']> }[]): string {
  if (files.length === 0) return 'Flakiness: no file holds more than one sample (record some with --samples k).';
  const rows = [...files]
    .sort((a, b) => a.samples.passed / a.samples.total - b.samples.passed / b.samples.total)
    .map(({ file, samples }) => [
      terminalText(file),
      String(samples.total),
      `${samples.passed}/${samples.total}`,
      samples.failed.length === 0 ? '-' : samples.failed.join(', '),
    ]);
  const table = [['file', 'samples', 'passed', 'failed samples'], ...rows];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const lines = table.map((row) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  );
  return ['Flakiness:', ...lines.map((line) => `  ${line}`)].join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}
