import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const TRAJECTORY_FILE = /\.ya?ml$/;

/** The trajectory files under the given paths (files as given, folders searched), sorted, relative to cwd. */
export function findTrajectories(paths: string[], cwd = process.cwd()): { files: string[]; missing: string[] } {
  const files = new Set<string>();
  const missing: string[] = [];
  for (const path of paths) {
    if (!existsSync(path)) {
      missing.push(path);
      continue;
    }
    if (statSync(path).isDirectory()) walk(path, files);
    else files.add(path);
  }
  return { files: [...files].map((file) => relative(cwd, file) || file).sort(), missing };
}

function walk(directory: string, into: Set<string>): void {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) walk(path, into);
    else if (TRAJECTORY_FILE.test(entry.name)) into.add(path);
  }
}
