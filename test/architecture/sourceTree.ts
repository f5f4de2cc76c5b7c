import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { useTempDir } from '../support/tempDir.js';

/** Writes a tree of source files (path relative to the root: text) into a fresh temporary folder per test: its root. */
export function useSourceTree(): (files: Record<string, string>) => string {
  const tempDir = useTempDir();
  return (files) => {
    const root = tempDir();
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  };
}
