import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareTrajectories, loadTrajectory, summarizeComparison, type ComparedFile } from '../../src/index.js';
import { compareHtml } from '../../src/view/index.js';
import { elementsOf, select, type Element } from '../support/htmlElements.js';

// legate compare --html: every string a file holds (its name, tools, stop reason, final text, model) and the corpus
// names reach the page as text, whatever they hold.

const hostile = fc.oneof(
  fc.string(),
  fc.string({ unit: fc.constantFrom('<', '>', '"', "'", '&', '/', '=', ' ', 's', 'c', 'r', 'i', 'p', 't', '-', '!') }),
  fc.constantFrom('<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', '</td></tr><script>', '<!--'),
);

const BASE = loadTrajectory('trajectories/zero-trust.yaml');

/** zero-trust and a copy whose tool, stop reason, final text and model are the strings given: a changed file. */
function files(s: Slots): ComparedFile[] {
  const after = structuredClone(BASE);
  const call = after.turns[1]!;
  for (const block of call.response.content) if ('toolUse' in block) block.toolUse.name = s.tool;
  call.results![0]!.outcome = 'ok';
  after.turns.at(-1)!.response.content = [{ text: s.text }];
  after.summary.stopReason = s.stop;
  after.model = s.model;
  const comparison = compareTrajectories(BASE, after);
  return [
    { file: s.file, status: 'changed', comparison },
    { file: `${s.file}~removed`, status: 'removed' },
  ];
}

function structure(elements: readonly Element[]): string[] {
  return elements.map((e) => `${e.name} ${Object.keys(e.attributes).sort().join(',')} ${e.attributes.class ?? ''}`);
}

const slots = fc.record({
  file: hostile,
  tool: hostile,
  stop: hostile,
  text: hostile,
  model: hostile,
  old: hostile,
  now: hostile,
});
type Slots = { file: string; tool: string; stop: string; text: string; model: string; old: string; now: string };
const plain = (s: Slots) =>
  Object.fromEntries(Object.entries(s).map(([k, v], i) => [k, `${i}${'x'.repeat(v.length)}`])) as Slots;

describe('compareHtml', () => {
  it('never lets a string open, close or attribute an element; each reads back as it was', () => {
    fc.assert(
      fc.property(slots, (raw) => {
        // A prefix per slot keeps different slots different.
        const s = Object.fromEntries(Object.entries(raw).map(([k, v], i) => [k, `${i}${v}`])) as typeof raw;
        const page = (x: typeof s) => {
          const rows = files(x);
          return compareHtml({ before: x.old, after: x.now }, rows, summarizeComparison(rows));
        };
        const elements = elementsOf(page(s));
        expect(structure(elements)).toEqual(structure(elementsOf(page(plain(s)))));
        expect(select(elements, 'script')).toHaveLength(1);
        const row = select(elements, 'tr', { 'data-file': s.file })[0]!;
        expect(row.attributes).toMatchObject({ 'data-status': 'changed', 'data-gated': 'true' });
        expect(select(elements, 'td', { 'data-column': 'stop reason' })[0]!.text).toBe(`end_turn → ${s.stop}`);
        expect(select(elements, 'caption')[0]!.text).toBe(`${s.old} (old) and ${s.now} (new)`);
        expect(select(elements, 'li').map((li) => li.text)).toContain(`tools: call 2 is ${s.tool}, was send_payment`);
      }),
      { numRuns: 100 },
    );
  });
});
