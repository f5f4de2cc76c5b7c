import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTrajectory, parseTrajectory } from '../../src/index.js';
import { LONG_OUTPUT, MAX_SHOWN } from '../../src/view/callHtml.js';
import { INDEX_PART_ROWS } from '../../src/view/indexRows.js';
import { ViewPage, viewHtml } from '../../src/view/index.js';
import { OPEN_SECTIONS_UP_TO } from '../../src/view/pageRuns.js';
import { elementsOf, select } from '../support/htmlElements.js';
import { useTempDir } from '../support/tempDir.js';
import { corpus } from '../view/shippedCorpus.js';

// docs/viewer.md states what the page holds and the hooks tests select on. This test holds it to the
// code: every hook it lists is on the page of the shipped corpus, and the limits it gives are the code's.

const doc = readFileSync('docs/viewer.md', 'utf8');
const tempDir = useTempDir();
const flat = doc.replace(/\s*\n\s*/g, ' ');
const hooks = flat.slice(flat.indexOf('## Hooks for tests'));

describe('docs/viewer.md', () => {
  const page = viewHtml([
    ...corpus.map(({ file, trajectory }) => ({ file, trajectory })),
    {
      file: 'diverged.yaml',
      trajectory: corpus[0]!.trajectory,
      verdict: { status: 'diverged', divergence: { turn: 1, path: 'p', expected: 1, actual: 2, message: 'm' } },
    },
  ]);
  const elements = elementsOf(page);

  it('lists hooks that are all on the page of the shipped corpus', () => {
    const selectors = [...hooks.matchAll(/`([a-z]+[.#][a-z-]+(?:\[[a-z-]+\])*)/g)].map((m) => m[1]!);
    expect(selectors.length).toBeGreaterThan(8);
    for (const selector of selectors) {
      const [, name, kind, value] = /^([a-z]+)([.#])([a-z-]+)/.exec(selector)!;
      const attributes = [...selector.matchAll(/\[([a-z-]+)\]/g)].map((m) => m[1]!);
      const found = select(elements, name!, {
        [kind === '.' ? 'class' : 'id']: value,
        ...Object.fromEntries(attributes.map((a) => [a, undefined])),
      });
      expect(found.length, `${selector} is not on the page`).toBeGreaterThan(0);
    }
    for (const attribute of [...hooks.matchAll(/`(data-[a-z-]+)/g)].map((m) => m[1]!))
      expect(page, `${attribute} is on no element`).toContain(` ${attribute}="`);
  });

  it('gives the limits the code has', () => {
    expect(flat).toContain(`over ${LONG_OUTPUT.toLocaleString('en')} characters`);
    expect(flat).toContain(`over ${MAX_SHOWN.toLocaleString('en')} characters`);
    expect(flat).toContain(`more than ${OPEN_SECTIONS_UP_TO.toLocaleString('en')} characters`);
    expect(flat).toContain(`Past ${INDEX_PART_ROWS} rows the index is a table per ${INDEX_PART_ROWS} rows`);
  });

  it('runs its ViewPage example: the page viewHtml makes, and nothing left beside it', () => {
    for (const line of [
      "const page = new ViewPage({ title: 'Nightly', scratch: 'reports' });",
      "for (const file of ['trajectories/zero-trust.yaml', 'trajectories/refusal.yaml'])",
      '  page.add({ file, trajectory: loadTrajectory(file) });',
      "page.write('reports/nightly.html');",
    ])
      expect(doc).toContain(line);
    const reports = tempDir();
    const page = new ViewPage({ title: 'Nightly', scratch: reports });
    const files = ['trajectories/zero-trust.yaml', 'trajectories/refusal.yaml'];
    for (const file of files) page.add({ file, trajectory: loadTrajectory(file) });
    page.write(join(reports, 'nightly.html'));
    expect(readFileSync(join(reports, 'nightly.html'), 'utf8')).toBe(
      viewHtml(
        files.map((file) => ({ file, trajectory: loadTrajectory(file) })),
        { title: 'Nightly' },
      ),
    );
    expect(readdirSync(reports)).toEqual(['nightly.html']);
  });

  it('runs its example', () => {
    const file = 'trajectories/zero-trust.yaml';
    const trajectory = parseTrajectory(readFileSync(file, 'utf8'), file);
    expect(doc).toContain("viewHtml([{ file, trajectory }], { title: 'Zero trust' })");
    const html = viewHtml([{ file, trajectory }], { title: 'Zero trust' });
    expect(select(elementsOf(html), 'h1')[0]!.text).toBe('Zero trust');
  });
});
