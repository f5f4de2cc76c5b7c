import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { readmeSnippets } from './support/readmeSnippets.js';

// Runs the README's testing guide: every code block marked `<!-- tested: name -->`, with its
// imports of 'legate' pointed at this repository's source.
const root = resolve('.');
const folder = join(root, '.legate-readme');
const snippets = readmeSnippets();

/** The modules a reader's project has: legate's entry points, vitest, and the reader's own agent. */
const READER_HAS = ['legate', 'legate/vitest', 'vitest', './agent.js'];

function localised(code: string): string {
  return (
    code
      .replaceAll(`from 'legate/vitest'`, `from '${root}/src/assert/vitest.ts'`)
      .replaceAll(`import 'legate/vitest'`, `import '${root}/src/assert/vitest.ts'`)
      .replaceAll(`from 'legate'`, `from '${root}/src/index.ts'`)
      // The reader's own agent: here, legate's example, which trajectories/zero-trust.yaml was recorded from.
      .replaceAll(`from './agent.js'`, `from '${root}/examples/payments/agent.ts'`)
  );
}

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('the README testing guide', () => {
  it('has the three examples', () => {
    if (snippets.map((s) => s.name).join() !== 'assertions,recording,regression')
      throw new Error(`found ${snippets.map((s) => s.name).join()}`);
  });

  it('imports only what a reader has: legate, vitest, and their own agent (./agent.js)', () => {
    const imported = snippets.flatMap((s) =>
      [...s.code.matchAll(/(?:from|import) '([^']+)'/g)].map(([, from]) => from),
    );
    expect(imported.filter((from) => !READER_HAS.includes(from!))).toEqual([]);
  });

  it.each(snippets.map((s) => [s.name, s] as const))('runs the %s example', async (name, snippet) => {
    // Offline: the recording example replays the committed file rather than going live.
    vi.stubEnv('CI', 'true');
    vi.stubEnv('LEGATE_MODE', '');
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    mkdirSync(folder, { recursive: true });
    const file = join(folder, `${name}.ts`);
    writeFileSync(file, localised(snippet.code));
    await import(file);
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });
});
