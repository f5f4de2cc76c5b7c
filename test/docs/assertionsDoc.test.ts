import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import '../../src/assert/vitest.js';
import { loadTrajectory } from '../../src/index.js';
import { failureMessage } from '../support/caught.js';
import { readmeSnippets } from '../support/readmeSnippets.js';
import { runSnippet } from '../support/snippetSource.js';

// docs/assertions.md: its reference-trajectory example run against this repository's source, and the failure
// message it quotes produced by the matcher, word for word.
const root = resolve('.');
const folder = join(root, '.legate-assertions-doc');
const doc = readFileSync('docs/assertions.md', 'utf8');
const snippets = readmeSnippets(doc);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('docs/assertions.md, reference trajectories', () => {
  it('runs its example, every check in it passing', async () => {
    expect(snippets.map((s) => s.name)).toEqual(['trajectory-match']);
    mkdirSync(folder, { recursive: true });
    expect(await runSnippet(folder, 'trajectory-match', snippets[0]!.code)).toEqual([['all matched']]);
  });

  it("quotes the failure of the example's unordered check as the matcher gives it", () => {
    const code = snippets[0]!.code;
    const refund = { tool: 'refund_payment', input: { orderId: 'A-1001', amount: 49.9 } };
    // The check the doc runs negated; here without `.not`, it fails with the message the doc quotes.
    expect(code).toContain(
      "expect(run).not.toMatchTrajectory([{ tool: 'verify_identity' }, refund], { order: 'unordered' });",
    );
    const run = loadTrajectory('trajectories/refund-requires-verification.yaml');
    const message = failureMessage(() =>
      expect(run).toMatchTrajectory([{ tool: 'verify_identity' }, refund], { order: 'unordered' }),
    );
    expect(doc).toContain(`\`\`\`\n${message}\n\`\`\``);
  });
});
