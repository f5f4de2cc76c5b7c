import { mkdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { writeFileAtomic, writeFileAtomicFrom } from '../src/files/writeFileAtomic.js';
import { oneLine } from './describeError.js';

/**
 * Where a command writes a report that no option names: this folder of the working folder, made when the report is
 * written. A report is an output, not a fixture: a project ignores the folder (legate's own .gitignore does).
 */
export const REPORTS_FOLDER = 'reports';

/** The path, as shown, of a report named `name` that a command writes when no option names a place for it. */
export function defaultReport(name: string): string {
  return `${REPORTS_FOLDER}/${name}`;
}

/**
 * Where a command's document goes: a file, or standard output (`-`). `makeFolder`: the file is a default report,
 * and its folder is made when it is written.
 */
export type OutputTarget = { kind: 'file'; path: string; shown: string; makeFolder?: true } | { kind: 'stdout' };

/**
 * The target of an output option that has a default report (see {@link defaultReport}): the file the option names,
 * as {@link outputTarget} checks it, else the default, whose folder is made when it is written; or the one-line
 * problem with it.
 */
export function reportTarget(
  option: string,
  output: string | undefined,
  cwd: string,
  fallback: string,
): OutputTarget | string {
  if (output !== undefined) return outputTarget(option, output, cwd, basename(fallback));
  const path = resolve(cwd, fallback);
  for (let folder = dirname(path); folder !== cwd && folder !== dirname(folder); folder = dirname(folder)) {
    const kind = kindOf(folder);
    if (kind === 'does not exist') continue;
    if (kind === 'folder') break;
    const shown = folder.slice(cwd.length + 1);
    return `${fallback}, the default for ${option}, cannot be written: ${shown} ${kind}; name a file with ${option}.`;
  }
  return { kind: 'file', path, shown: fallback, makeFolder: true };
}

/**
 * The target an output option names, or the one-line problem with it. Checked before a command does any work, so
 * nothing is run for a document that cannot be written: the file's folder must exist, and it must not be a folder.
 */
export function outputTarget(option: string, output: string, cwd: string, example: string): OutputTarget | string {
  if (output === '') return `${option} needs a file name (or - for standard output).`;
  if (output === '-') return { kind: 'stdout' };
  const path = resolve(cwd, output);
  const folder = kindOf(dirname(path));
  if (folder !== 'folder') return `${option} ${output}: the folder ${dirname(output)} ${folder}; create it first.`;
  if (kindOf(path) === 'folder')
    return `${option} ${output} is a folder; name a file in it, e.g. ${join(output, example)}.`;
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
 * Writes the document, a string or its pieces in order (a page too large to hold, written as it is made): to standard
 * output through `out` (joined: standard output gets one text), or to its file whole or not at all (writeFileAtomic).
 * Returns the bytes written, or the one-line problem if the file could not be written.
 */
export function writeOutput(
  option: string,
  /** What is written, for the problem line: 'report', 'page'. */
  what: string,
  target: OutputTarget,
  document: string | Iterable<string>,
  out: (text: string) => void,
): number | string {
  if (target.kind === 'stdout') {
    const text = typeof document === 'string' ? document : [...document].join('');
    out(text.replace(/\n$/, ''));
    return Buffer.byteLength(text);
  }
  try {
    if (target.makeFolder === true) mkdirSync(dirname(target.path), { recursive: true });
    if (typeof document !== 'string') return writeFileAtomicFrom(target.path, document);
    writeFileAtomic(target.path, document);
    return Buffer.byteLength(document);
  } catch (error) {
    return notWritten(option, what, target, error);
  }
}

/** The one line for a document that could not be written to its file, `error` the system's reason. */
export function notWritten(
  option: string,
  what: string,
  target: OutputTarget & { kind: 'file' },
  error: unknown,
): string {
  const reason = oneLine((error as Error).message).replaceAll(target.path, target.shown);
  return `${option} ${target.shown}: the ${what} could not be written: ${reason}.`;
}
