import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The CLI is thin: each verb calls the library through its public surface. It never reaches into
// the layers behind it (recording, transports, the runtime's internals) for what it needs.
const root = join(import.meta.dirname, '../..');
const INTERNAL = /from '(?:\.\.\/)+src\/(recording|transport|runtime)\//;

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the CLI', () => {
  it('imports recording, transports and the runtime only through the public surface', () => {
    const reaching = sources(join(root, 'cli')).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => INTERNAL.test(line))
        .map((line) => `${relative(root, file)}: ${line.trim()}`),
    );
    expect(reaching).toEqual([]);
  });
});
