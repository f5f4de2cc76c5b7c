import { createHash } from 'node:crypto';
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { LegateError } from '../errors/LegateError.js';

export type FindingOutputErrorCode = 'empty_folder' | 'not_a_folder' | 'not_writable' | 'outside_folder';

/** The folder a fuzzer writes its findings to cannot take them; said before any fuzzing. */
export class FindingOutputError extends LegateError {
  constructor(
    readonly code: FindingOutputErrorCode,
    /** The folder (or file) at fault, as given. */
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Checks, before any fuzzing, that findings can be written to `folder`: it is named, and it is
 * a folder (or can be made one: the nearest part of the path that exists is a folder) that may
 * be written to. Throws a {@link FindingOutputError} saying what to pass instead.
 */
export function checkOutFolder(folder: string): void {
  if (folder.trim() === '') {
    throw new FindingOutputError(
      'empty_folder',
      folder,
      `the folder for findings must be named, but it was ${JSON.stringify(folder)}. Pass a folder, e.g. ` +
        'trajectories/fuzz.',
    );
  }
  for (let path = resolve(folder); ; path = dirname(path)) {
    let isFolder: boolean;
    try {
      isFolder = statSync(path).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && dirname(path) !== path) continue; // made when the first finding is written
      throw new FindingOutputError(
        'not_a_folder',
        folder,
        `findings cannot be written to ${folder}: ${path} cannot be looked at (${code ?? String(error)}). Pass ` +
          'a folder that exists or can be made.',
      );
    }
    if (!isFolder) {
      const where =
        path === resolve(folder)
          ? `${folder} is a file, not a folder`
          : `${folder} lies under ${path}, which is a file`;
      throw new FindingOutputError(
        'not_a_folder',
        folder,
        `findings cannot be written to ${folder}: ${where}. Pass a folder, e.g. trajectories/fuzz.`,
      );
    }
    try {
      accessSync(path, constants.W_OK);
    } catch {
      throw new FindingOutputError(
        'not_writable',
        folder,
        `findings cannot be written to ${folder}: ${path} may not be written to. Pass a folder you can write to.`,
      );
    }
    return;
  }
}

/** A name that is already a safe, portable file name: lower case (so no two differ only in case), no leading dash. */
const PLAIN_NAME = /^[a-z0-9_][a-z0-9_-]{0,63}$/;

/**
 * The file a finding of `name` (an agent's or tool's, any string) found with `seed` is written
 * to, inside `folder`: {@link fileNameOf} the name, then the seed.
 */
export function findingFile(folder: string, name: string, seed: number): string {
  return confinedPath(folder, `${fileNameOf(name)}-${seed >>> 0}.yaml`);
}

/**
 * A file name (without extension) for any string: a plain name is used as it is; any other is
 * turned into a readable slug plus a short hash of the name, so distinct names never share a file.
 */
export function fileNameOf(name: string): string {
  if (PLAIN_NAME.test(name)) return name;
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '-')
    .replace(/^[-_]+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  // Of the UTF-16 code units: UTF-8 would turn every lone surrogate into the same U+FFFD.
  const hash = createHash('sha256').update(Buffer.from(name, 'utf16le')).digest('hex').slice(0, 8);
  return `${slug === '' ? 'agent' : slug}-${hash}`;
}

/**
 * The one way to a path for a file a fuzzer writes: `fileName` joined to `folder`, checked to
 * name a file directly inside it. Anything that would land elsewhere is refused.
 */
export function confinedPath(folder: string, fileName: string): string {
  const inside = relative(resolve(folder), resolve(folder, fileName));
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside) || inside.includes(sep) || inside !== fileName) {
    throw new FindingOutputError(
      'outside_folder',
      fileName,
      `the file name ${JSON.stringify(fileName)} does not name a file inside ${folder}, so nothing was written.`,
    );
  }
  return join(folder, fileName);
}
