import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { writeFileAtomic } from '../src/files/writeFileAtomic.js';
import { oneLine } from './describeError.js';

/** Where a command's document goes: a file, or standard output (`-`). */
export type OutputTarget = { kind: 'file'; path: string; shown: string } | { kind: 'stdout' };

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
 * Writes the document: to standard output through `out`, or to its file whole or not at all (writeFileAtomic).
 * Returns the one-line problem if the file could not be written.
 */
export function writeOutput(
  option: string,
  /** What is written, for the problem line: 'report', 'page'. */
  what: string,
  target: OutputTarget,
  text: string,
  out: (text: string) => void,
): string | undefined {
  if (target.kind === 'stdout') {
    out(text.replace(/\n$/, ''));
    return undefined;
  }
  try {
    writeFileAtomic(target.path, text);
    return undefined;
  } catch (error) {
    const reason = oneLine((error as Error).message).replaceAll(target.path, target.shown);
    return `${option} ${target.shown}: the ${what} could not be written: ${reason}.`;
  }
}
