import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INDEX_PART_ROWS } from '../../src/view/indexRows.js';
import { ViewPage, type ViewEntry, viewHtml } from '../../src/view/index.js';
import { OPEN_SECTIONS_UP_TO, PageRuns } from '../../src/view/pageRuns.js';
import { elementsOf, inside, select } from '../support/htmlElements.js';
import { useTempDir } from '../support/tempDir.js';
import { corpus, shipped } from './shippedCorpus.js';

// Issue 31: a page of many runs. It is made one run at a time (a row kept, the section set aside), lists the files
// that did not pass first, splits its index into tables a browser lays out as they come into view, and past a size
// keeps each section inert (the text of a comment) until a link opens it.

const tempDir = useTempDir();
const entries = (copies: number): ViewEntry[] =>
  Array.from({ length: copies }, (_, i) => corpus[i % corpus.length]!).map(({ file, trajectory }, i) => ({
    file: file.replace('.yaml', `-${i}.yaml`),
    trajectory,
  }));
const diverged: ViewEntry = {
  file: 'late/diverged.yaml',
  trajectory: shipped('zero-trust'),
  verdict: { status: 'diverged', divergence: { turn: 2, path: 'p', expected: 1, actual: 2, message: 'm' } },
};

/** A page of `given`, its sections laid out (`open`) or set aside. */
function page(given: readonly ViewEntry[], open: boolean): string {
  const runs = new PageRuns<string>(undefined, (body) => body);
  for (const entry of given) runs.add(entry);
  return [...runs.chunks((body) => body, open)].join('');
}

/** Each section of a page: its attributes and what it holds, as written (a set-aside one's: its comment). */
function sections(html: string): { attributes: string; body: string }[] {
  return [...html.matchAll(/<section class="trajectory"([^>]*)>([\s\S]*?)<\/section>/g)].map((m) => ({
    attributes: m[1]!,
    body: m[2]!,
  }));
}

describe('a page of many runs', () => {
  it('sets each section aside past its size: hidden, the ids it holds named, its content the text of a comment', () => {
    const given = [...entries(30), diverged];
    const [open, inert] = [sections(page(given, true)), sections(page(given, false))];
    expect(inert).toHaveLength(given.length);
    inert.forEach((section, i) => {
      const live = open[i]!;
      const ids = [...live.body.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!);
      expect(section.attributes).toBe(`${live.attributes} data-anchors="${ids.join(' ')}" data-inert hidden`);
      expect(section.body.startsWith('<!--') && section.body.endsWith('-->')).toBe(true);
      const held = section.body.slice(4, -3);
      expect(held).not.toContain('--');
      expect(held.replaceAll('-&#45;', '--')).toBe(live.body);
    });
    // viewHtml decides by size: the shipped corpus is laid out, a page past the limit is set aside.
    expect(viewHtml(entries(corpus.length))).not.toContain(' data-inert hidden>');
    const size = sections(page(entries(corpus.length), true)).reduce((sum, section) => sum + section.body.length, 0);
    const many = entries(corpus.length * Math.ceil(OPEN_SECTIONS_UP_TO / size + 1));
    const html = viewHtml(many);
    expect(html.match(/ data-inert hidden>/g)).toHaveLength(many.length);
    expect(select(elementsOf(html), 'details')).toEqual([]);
  });

  it('lists the files that did not pass first, rows and sections alike, and counts each verdict', () => {
    const given: ViewEntry[] = [
      { file: 'a.yaml', trajectory: shipped('refusal'), verdict: { status: 'passed' } },
      { file: 'b.yaml', trajectory: shipped('zero-trust'), verdict: diverged.verdict! },
      { file: 'c.yaml', trajectory: shipped('refusal') },
      { file: 'd.yaml', trajectory: undefined, verdict: { status: 'error', message: 'd.yaml: not YAML' } },
      { file: 'e.yaml', trajectory: undefined, verdict: { status: 'missing', message: 'e.yaml: does not exist' } },
    ];
    const elements = elementsOf(viewHtml(given));
    const order = ['b.yaml', 'd.yaml', 'e.yaml', 'a.yaml', 'c.yaml'];
    expect(select(elements, 'tr', { 'data-file': undefined }).map((row) => row.attributes['data-file'])).toEqual(order);
    expect(select(elements, 'section', { class: 'trajectory' }).map((s) => s.attributes['data-file'])).toEqual(order);
    expect(select(elements, 'p', { class: 'tally' })[0]!.text).toBe(
      '5 trajectories: 1 diverged, 1 error, 1 missing, 1 passed, 1 recorded',
    );
  });

  it(`splits the index into a table per ${INDEX_PART_ROWS} rows, each with its header and caption`, () => {
    const missing = (i: number): ViewEntry => ({
      file: `f${i}.yaml`,
      trajectory: undefined,
      verdict: { status: 'missing', message: 'gone' },
    });
    const elements = elementsOf(viewHtml(Array.from({ length: 2 * INDEX_PART_ROWS + 1 }, (_, i) => missing(i))));
    const [index, ...more] = select(elements, 'div', { id: 'index' });
    expect(more).toEqual([]);
    const tables = select(inside(elements, index!), 'table');
    expect(tables.map((table) => select(inside(elements, table), 'caption')[0]!.text)).toEqual([
      'Trajectories 1–500 of 1,001',
      'Trajectories 501–1,000 of 1,001',
      'Trajectories 1,001–1,001 of 1,001',
    ]);
    for (const table of tables) expect(select(inside(elements, table), 'th', { scope: 'col' })).toHaveLength(9);
    const rows = select(inside(elements, index!), 'tr', { 'data-file': undefined });
    expect(rows.map((row) => row.attributes['data-file'])).toEqual(
      Array.from({ length: 1001 }, (_, i) => `f${i}.yaml`),
    );
    // A page of few rows has one table, captioned as before.
    const one = elementsOf(viewHtml([missing(0)]));
    expect(select(one, 'caption').map((caption) => caption.text)).toEqual(['Trajectories']);
  });

  it('gives every element a unique id, whatever the files are named, and each row a link to its own section', () => {
    const name = fc.constantFrom('x', 'x-title', 'x-2', 'x-title-2', 'x.yaml', 'x_title', 'a/x', 'b\\x-title');
    fc.assert(
      fc.property(fc.array(name, { maxLength: 8 }), fc.boolean(), (names, open) => {
        const html = page(
          names.map((file) => ({ file, trajectory: shipped('zero-trust') })),
          open,
        );
        const elements = elementsOf(open ? html : html.replace(/<!--([\s\S]*?)-->/g, '$1'));
        const ids = elements.flatMap((e) => (e.attributes.id === undefined ? [] : [e.attributes.id]));
        expect(new Set(ids).size).toBe(ids.length);
        for (const row of select(elements, 'tr', { 'data-file': undefined })) {
          const target = select(row === undefined ? [] : inside(elements, row), 'a')[0]!.attributes.href!.slice(1);
          expect(select(elements, 'section', { id: target })[0]!.attributes['data-file']).toBe(
            row.attributes['data-file'],
          );
        }
      }),
    );
  });

  it('ViewPage writes, piece by piece, the page viewHtml makes, and removes what it set aside', () => {
    const variants: ViewEntry[][] = [[], entries(3), [...entries(corpus.length), diverged], entries(800)];
    for (const given of variants) {
      const folder = tempDir();
      const view = new ViewPage({ scratch: folder });
      for (const entry of given) view.add(entry);
      const bytes = view.write(join(folder, 'page.html'));
      const expected = viewHtml(given);
      expect(readFileSync(join(folder, 'page.html'), 'utf8') === expected, `${given.length} runs`).toBe(true);
      expect(bytes).toBe(Buffer.byteLength(expected));
      expect(readdirSync(folder)).toEqual(['page.html']);
    }
  });
});
