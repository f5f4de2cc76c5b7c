import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readmeSnippets } from '../support/readmeSnippets.js';
import { runSnippet } from '../support/snippetSource.js';

// docs/evaluation.md: its examples run against this repository's source, printing what the page says they print.
const root = resolve('.');
const folder = join(root, '.legate-evaluation-doc');
const doc = readFileSync('docs/evaluation.md', 'utf8');
const snippets = new Map(readmeSnippets(doc).map((s) => [s.name, s.code]));

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('docs/evaluation.md', () => {
  it('repeated samples: records 5, replays them by a rule, and fails by the default one', async () => {
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    const printed = await runSnippet(folder, 'samples', snippets.get('samples')!);
    expect(printed).toEqual([[5], [[true, false, true, true, false]], ['samples_failed']]);
    expect(doc).toContain('It prints `5`, then `[ true, false, true, true, false ]`, then `samples_failed`.');
  });
});
