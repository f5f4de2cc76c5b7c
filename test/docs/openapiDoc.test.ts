import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readmeSnippets } from '../support/readmeSnippets.js';
import { runSnippet } from '../support/snippetSource.js';

// Runs docs/openapi.md's examples, their imports of 'legate' and 'legate/openapi' pointed at this
// repository's source, and holds them to the output the page says they print.
const root = resolve('.');
const folder = join(root, '.legate-openapi-doc');
const doc = readFileSync('docs/openapi.md', 'utf8');
const snippets = readmeSnippets(doc);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('docs/openapi.md', () => {
  it('runs its examples and prints what the page says they print', async () => {
    expect(snippets.map((s) => s.name)).toEqual(['openapi-tools', 'openapi-taint']);
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    const [tools, taint] = snippets as unknown as [{ code: string }, { code: string }];

    const summary = await runSnippet(folder, 'openapi-tools', tools.code);
    const shown = /prints\n\n```\n([\s\S]*?)\n```/.exec(doc)![1]!;
    expect(summary).toEqual([[shown]]);

    // The second example uses the first one's document.
    const spec = /const spec = `[\s\S]*?`;\n/.exec(tools.code)![0];
    const printed = await runSnippet(folder, 'openapi-taint', `${spec}${taint.code}`);
    expect(printed).toEqual([
      [['get_pet_by_id: ok', 'delete_pet: blocked']],
      [['delete_pet blocked by taint from get_pet_by_id']],
    ]);
    expect(doc).toContain(
      "prints `[ 'get_pet_by_id: ok', 'delete_pet: blocked' ]` and\n" +
        "`[ 'delete_pet blocked by taint from get_pet_by_id' ]`.",
    );
  });
});
