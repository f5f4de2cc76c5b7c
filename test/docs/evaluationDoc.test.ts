import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.js';
import { COMPLETE_STOP_REASONS } from '../../src/index.js';
import { COMPARISON_COLUMNS } from '../../src/view/index.js';
import { captureIo } from '../support/captureIo.js';
import { corpusProject, liveAt, SHIPPED } from '../support/corpusProject.js';
import { corpusStandIn, upgradedModel } from '../support/corpusStandIn.js';
import { readmeSnippets } from '../support/readmeSnippets.js';
import { runSnippet } from '../support/snippetSource.js';
import { useTempDir } from '../support/tempDir.js';

// docs/evaluation.md, "A model upgrade's impact": its commands run as printed (in-process, in a project holding
// the shipped corpus and this repository's agents) against a stand-in of an upgraded model over HTTP, each printing
// what the page shows; then its code example, on the files they wrote.

const tempDir = useTempDir();
afterEach(() => vi.unstubAllEnvs());

const page = readFileSync('docs/evaluation.md', 'utf8');
const section = page.slice(page.indexOf("## A model upgrade's impact"));

/** A command the page marks (`<!-- evaluation: name -->`), and the output it shows in the text block after it. */
function example(name: string): { argv: string[]; shown: string[] } {
  const found = new RegExp(
    `<!-- evaluation: ${name} -->\\n\`\`\`sh\\n(.*)\\n\`\`\`\\n\\n\`\`\`text\\n([\\s\\S]*?)\\n\`\`\``,
  ).exec(section);
  if (found === null) throw new Error(`docs/evaluation.md has no example '${name}'`);
  const [, command, output] = found;
  expect(command).toMatch(/^npx legate /);
  return { argv: command!.slice('npx legate '.length).split(' '), shown: output!.split('\n') };
}

/** Whether the page's lines (`...` standing for any lines) are what was printed: every line, in order. */
function expectShown(printed: string[], shown: string[]): void {
  let at = 0;
  for (const line of shown) {
    if (line === '...') continue;
    const found = printed.indexOf(line, at);
    expect(
      found,
      `the page shows\n${line}\nwhich was not printed (after line ${at}) in\n${printed.join('\n')}`,
    ).not.toBe(-1);
    at = found + 1;
  }
  expect(printed[0]).toBe(shown[0]);
  expect(printed.at(-1)).toBe(shown.at(-1));
}

describe("docs/evaluation.md, A model upgrade's impact", () => {
  it('rerecords the shipped corpus with another model and compares: the output the page shows, exit 1', async () => {
    const dir = corpusProject(tempDir(), SHIPPED, 'trajectories');
    // The upgraded model answers with the model each request names, as the API does.
    const standIn = await corpusStandIn(SHIPPED, (served) => ({
      ...upgradedModel(served),
      model: served.request.model,
    }));
    liveAt(standIn.url);
    const rerecord = example('rerecord');
    try {
      const io = captureIo(dir);
      expect(await main(rerecord.argv, io), io.text()).toBe(0);
      expectShown(io.stdout, rerecord.shown);
    } finally {
      await standIn.close();
    }
    const compare = example('compare');
    const io = captureIo(dir);
    expect(await main(compare.argv, io), io.text()).toBe(1);
    expectShown(io.stdout, compare.shown);
    // The new files replay with the agents as they are, offline.
    expect(section).toContain('`legate replay\nrerecorded` passes offline');
    const replayed = captureIo(dir);
    expect(await main(['replay', '--workers', '1', 'rerecorded'], replayed), replayed.text()).toBe(0);
    // The code example, on the files the commands wrote.
    const code = readmeSnippets(page).find((snippet) => snippet.name === 'compare-in-code')!.code;
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      expect(await runSnippet(dir, 'compare-in-code', code)).toEqual([[true], [['send_payment: now blocked']]]);
    } finally {
      process.chdir(cwd);
    }
  }, 120_000);

  it('states the columns legate compare prints, and what passes, as the code has them', () => {
    const rows = [...section.matchAll(/^\| `([^`]+)`(?:, `([^`]+)`)? \|/gm)].flatMap(([, a, b]) =>
      b === undefined ? [a] : [a, b],
    );
    expect(rows).toEqual(COMPARISON_COLUMNS.filter((column) => column !== 'file'));
    const reasons = COMPLETE_STOP_REASONS;
    expect(section).toContain(
      `when its run ended complete, with a stop reason of ${reasons.slice(0, -1).join(', ')} or ${reasons.at(-1)}, and`,
    );
  });
});

describe('docs/evaluation.md, Repeated samples', () => {
  const root = resolve('.');
  const folder = join(root, '.legate-evaluation-doc');
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('records 5 samples, replays them by a rule, and fails by the default one', async () => {
    const snippets = new Map(readmeSnippets(page).map((s) => [s.name, s.code]));
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    const printed = await runSnippet(folder, 'samples', snippets.get('samples')!);
    expect(printed).toEqual([[5], [[true, false, true, true, false]], ['samples_failed']]);
    expect(page).toContain('It prints `5`, then `[ true, false, true, true, false ]`, then `samples_failed`.');
  });
});
