import { renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { oneLine } from './describeError.js';

/** The report formats `legate replay --reporter` writes. */
export const REPORTERS = ['junit'] as const;

/** Where a report goes: a file, or standard output (`--output -`, the verdict lines then go to standard error). */
export type ReportTarget = { kind: 'file'; path: string; shown: string } | { kind: 'stdout' };

/**
 * The report `--reporter` and `--output` ask for: none when neither is given, else its target, or the
 * one-line problem with them. Checked before anything runs, so a replay is never done for a report that cannot
 * be written: `--output` must name a file in a folder that exists.
 */
export function reportTarget(
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
  return { kind: 'file', path, shown: relative(cwd, path) || output };
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
export function writeReport(target: ReportTarget, text: string, out: (text: string) => void): string | undefined {
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
