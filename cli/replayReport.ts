import { renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { oneLine } from './describeError.js';
import type { CliIo } from './io.js';
import { junitXml, type ReportCase } from './junit.js';

/** The report formats `legate replay --reporter` writes. */
export const REPORTERS = ['junit'] as const;

/** Where a report goes: a file, or standard output (`--output -`, the verdict lines then go to standard error). */
type ReportTarget = { kind: 'file'; path: string; shown: string } | { kind: 'stdout' };

/**
 * The report `--reporter` and `--output` ask for: none when neither is given, else its target, or the
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
  if (!(REPORTERS as readonly string[]).includes(reporter))
    return `--reporter must be one of ${known}, but it was '${reporter}'.`;
  if (output === undefined || output === '')
    return `--reporter ${reporter} needs --output <file> (or --output - for standard output).`;
  if (output === '-') return { kind: 'stdout' };
  const path = resolve(cwd, output);
  const folder = kindOf(dirname(path));
  if (folder !== 'folder') return `--output ${output}: the folder ${dirname(output)} ${folder}; create it first.`;
  if (kindOf(path) === 'folder')
    return `--output ${output} is a folder; name a file in it, e.g. ${join(output, 'junit.xml')}.`;
  return { kind: 'file', path, shown: output };
}

function kindOf(path: string): 'folder' | 'does not exist' | 'is not a folder' {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'is not a folder';
  } catch {
    return 'does not exist';
  }
}

/**
 * Writes the report: to standard output through `out`, or to its file whole or not at all (a temporary
 * file beside it, renamed over it). Returns the one-line problem if the file could not be written.
 */
function writeReport(target: ReportTarget, text: string, out: (text: string) => void): string | undefined {
  if (target.kind === 'stdout') {
    out(text.replace(/\n$/, ''));
    return undefined;
  }
  const temporary = join(dirname(target.path), `.${basename(target.path)}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, target.path);
    return undefined;
  } catch (error) {
    rmSync(temporary, { force: true });
    const reason = oneLine((error as Error).message).replaceAll(target.path, target.shown);
    return `--output ${target.shown}: the report could not be written: ${reason}.`;
  }
}

/** What a file's verdict says, for its test case: passed, or the error's code and the whole message. */
export interface FileResult {
  ok: boolean;
  code?: string;
  detail: string;
}

/**
 * The report of one `legate replay`, as `--reporter` and `--output` ask for it: collects a test
 * case per path and file as the replay goes, and writes them at the end (or nothing, when no
 * report was asked for).
 */
export class ReplayReport {
  readonly #target: ReportTarget | undefined;
  readonly #cases: ReportCase[] = [];
  readonly #started = performance.now();

  private constructor(target: ReportTarget | undefined) {
    this.#target = target;
  }

  /** The report the options ask for (none when neither is given), or the one-line problem with them. */
  static fromOptions(reporter: string | undefined, output: string | undefined, cwd: string): ReplayReport | string {
    const target = reportTarget(reporter, output, cwd);
    return typeof target === 'string' ? target : new ReplayReport(target);
  }

  /** Where the verdict lines go: standard error when the report takes standard output. */
  verdictsTo(io: CliIo): (text: string) => void {
    return this.#target?.kind === 'stdout' ? io.err : io.out;
  }

  /** A path given that is not there, or a folder that could not be listed: an error case. */
  pathProblem(path: string, code: 'not_found' | 'unreadable', message: string): void {
    this.#cases.push({ file: path, outcome: 'error', seconds: 0, code, message });
  }

  /** A file replayed: a divergence is a failure; anything else that went wrong, an error. */
  file(file: string, result: FileResult, seconds: number): void {
    if (result.ok) this.#cases.push({ file, outcome: 'passed', seconds });
    else {
      const outcome = result.code === 'trajectory_divergence' ? 'failed' : 'error';
      this.#cases.push({ file, outcome, seconds, code: result.code ?? 'error', message: result.detail });
    }
  }

  /** A file not run (after --bail). */
  skipped(file: string): void {
    this.#cases.push({ file, outcome: 'skipped', seconds: 0 });
  }

  /** Writes the report, if one was asked for; the exit code: `code`, or 2 if the report could not be written. */
  finish(code: number, io: CliIo): number {
    if (this.#target === undefined) return code;
    const seconds = (performance.now() - this.#started) / 1000;
    const problem = writeReport(this.#target, junitXml(this.#cases, seconds), io.out);
    if (problem !== undefined) io.err(`legate replay: ${problem}`);
    return problem === undefined ? code : 2;
  }
}
