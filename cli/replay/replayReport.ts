import type { Trajectory } from '../../src/index.js';
import type { ViewVerdict } from '../../src/view/index.js';
import type { CliIo } from '../io.js';
import { junitXml, type ReportCase } from '../junit.js';
import { outputTarget, writeOutput, type OutputTarget } from '../outputFile.js';
import { PageOutput } from '../pageOutput.js';
import { blobText, type BlobRecord, type BlobRun } from './replayBlob.js';
import type { Verdict } from './fileVerdict.js';

/** The report formats `legate replay --reporter` writes. */
const REPORTERS = ['junit', 'html', 'blob'] as const;
type Reporter = (typeof REPORTERS)[number];

/** A report asked for: its format and where it goes. */
type ReportTarget = { reporter: Reporter; to: OutputTarget };

/**
 * The report `--reporter` and `--output` ask for: none when neither is given, else its format and target, or the
 * one-line problem with them. Checked before anything runs, so a replay is never done for a report that cannot
 * be written: `--output` must name a file in a folder that exists.
 */
function reportTarget(
  reporter: string | undefined,
  output: string | undefined,
  cwd: string,
): ReportTarget | undefined | string {
  if (reporter === undefined && output === undefined) return undefined;
  const known = REPORTERS.join(', ');
  if (reporter === undefined)
    return `--output needs a --reporter (${known}), e.g. --reporter junit --output report.xml.`;
  if (!isReporter(reporter)) return `--reporter must be one of ${known}, but it was '${reporter}'.`;
  if (output === undefined || output === '')
    return `--reporter ${reporter} needs --output <file> (or --output - for standard output).`;
  const example = { junit: 'junit.xml', html: 'replay.html', blob: 'shard-1.json' }[reporter];
  const to = outputTarget('--output', output, cwd, example);
  return typeof to === 'string' ? to : { reporter, to };
}

function isReporter(name: string): name is Reporter {
  return (REPORTERS as readonly string[]).includes(name);
}

/**
 * The report of one `legate replay`, as `--reporter` and `--output` ask for it: collects a test
 * case per path and file as the replay goes, and writes them at the end (or nothing, when no
 * report was asked for).
 */
export class ReplayReport {
  readonly #target: ReportTarget | undefined;
  readonly #cases: ReportCase[] = [];
  /** The html page, made as the files come. */
  readonly #page: PageOutput | undefined;
  readonly #records: BlobRecord[] = [];
  #run: BlobRun | undefined;
  readonly #started = performance.now();

  private constructor(target: ReportTarget | undefined) {
    this.#target = target;
    if (target?.reporter === 'html') this.#page = new PageOutput('--output', 'report', target.to, 'legate replay');
  }

  /** The report the options ask for (none when neither is given), or the one-line problem with them. */
  static fromOptions(reporter: string | undefined, output: string | undefined, cwd: string): ReplayReport | string {
    const target = reportTarget(reporter, output, cwd);
    return typeof target === 'string' ? target : new ReplayReport(target);
  }

  /** Where the verdict lines go: standard error when the report takes standard output. */
  verdictsTo(io: CliIo): (text: string) => void {
    return this.#target?.to.kind === 'stdout' ? io.err : io.out;
  }

  /** Whether the report is a blob, to merge with other shards' (which options it may be given with). */
  isBlob(): boolean {
    return this.#target?.reporter === 'blob';
  }

  /** The run's corpus, shard and options, which a blob records so that shards merge. */
  describeRun(run: BlobRun): void {
    this.#run = run;
  }

  /** A path given that is not there, or a folder that could not be listed: an error case. */
  pathProblem(path: string, code: 'not_found' | 'unreadable', message: string): void {
    this.#cases.push({ file: path, outcome: 'error', seconds: 0, code, message });
    const status = code === 'not_found' ? 'missing' : 'error';
    this.#page?.add({ file: path, trajectory: undefined, verdict: { status, message } });
  }

  /**
   * A file replayed: a divergence is a failure; anything else that went wrong, an error. Kept only as the report
   * asked for needs it (no report keeps nothing; html keeps its index row and sets its section aside on disk; only
   * blob keeps trajectories), so a corpus of any size replays in bounded memory.
   */
  file(file: string, result: Verdict, seconds: number): void {
    const reporter = this.#target?.reporter;
    if (reporter === 'junit') {
      const samples = result.samples === undefined ? {} : { samples: result.samples };
      if (result.ok) this.#cases.push({ file, outcome: 'passed', seconds, ...samples });
      else {
        // Too few samples passed is a failure of the test, as a divergence is; anything else is an error.
        const failed = result.code === 'trajectory_divergence' || result.code === 'samples_failed';
        const outcome = failed ? 'failed' : 'error';
        this.#cases.push({ file, outcome, seconds, code: result.code ?? 'error', message: result.detail, ...samples });
      }
    }
    this.#page?.add({ file, trajectory: result.trajectory, verdict: viewVerdict(result) });
    if (reporter === 'blob') this.#records.push({ kind: 'replayed', file, verdict: result, seconds });
  }

  /** Whether the report shows the trajectories (html, or a blob that may be merged into html), so a file not run is
   * still read for it. */
  wantsTrajectories(): boolean {
    return this.#target?.reporter === 'html' || this.isBlob();
  }

  /** A file not run (after --bail): in the html report, its trajectory (when readable) without a verdict. */
  skipped(file: string, trajectory: Trajectory | undefined): void {
    this.#cases.push({ file, outcome: 'skipped', seconds: 0 });
    this.#page?.add({ file, trajectory });
    if (this.isBlob())
      this.#records.push({ kind: 'skipped', file, ...(trajectory === undefined ? {} : { trajectory }) });
  }

  /** Writes the report, if one was asked for; the exit code: `code`, or 2 if the report could not be written. */
  finish(code: number, io: CliIo): number {
    if (this.#target === undefined) return code;
    const seconds = (performance.now() - this.#started) / 1000;
    const { reporter } = this.#target;
    if (reporter === 'blob' && this.#run === undefined) throw new Error('a blob report needs describeRun first');
    if (this.#page !== undefined) return this.#written(this.#page.write(io.out), code, io);
    const text = reporter === 'junit' ? junitXml(this.#cases, seconds) : blobText(this.#run!, this.#records);
    return this.#written(writeOutput('--output', 'report', this.#target.to, text, io.out), code, io);
  }

  /** The exit code once the report is written: `code`, or 2 (its one line said) if it could not be. */
  #written(written: number | string, code: number, io: CliIo): number {
    if (typeof written === 'number') return code;
    io.err(`legate replay: ${written}`);
    return 2;
  }

  /** Removes what an html report set aside, if it was not written (the replay stopped early). */
  dispose(): void {
    this.#page?.dispose();
  }
}

/** A file's verdict as the html report shows it: passed, diverged (where and what), or the one-line error. */
function viewVerdict(result: Verdict): ViewVerdict {
  const samples = result.samples === undefined ? {} : { samples: result.samples };
  if (result.ok) return { status: 'passed', ...samples };
  if (result.divergence !== undefined) return { status: 'diverged', divergence: result.divergence, ...samples };
  // Too few samples replayed: diverged, as each failed sample did (its message names them).
  if (result.code === 'samples_failed')
    return { status: 'diverged', message: result.detail.split('\n')[0]!, ...samples };
  return { status: 'error', message: result.detail.split('\n')[0]!, ...samples };
}
