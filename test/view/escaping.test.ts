import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Trajectory } from '../../src/index.js';
import { escapeHtml } from '../../src/view/escapeHtml.js';
import { diffHtml, viewHtml, type ViewEntry } from '../../src/view/index.js';
import { PageRuns } from '../../src/view/pageRuns.js';
import { elementsOf, select, type Element } from '../support/htmlElements.js';
import { shipped } from './shippedCorpus.js';

/**
 * Every string of a file (and of a verdict) reaches the page as text: whatever it holds, the page has the
 * same elements and attributes as with plain letters in its place, one script (the page's own), and the
 * text reads back as it was.
 */

const hostile = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({
    unit: fc.constantFrom(
      '<',
      '>',
      '"',
      "'",
      '&',
      '/',
      '=',
      ' ',
      '\n',
      's',
      'c',
      'r',
      'i',
      'p',
      't',
      '!',
      '-',
      '#',
      ';',
    ),
  }),
  fc.constantFrom(
    '<script>alert(1)</script>',
    '"><img src=x onerror=alert(1)>',
    "' onmouseover='alert(1)",
    '</pre></details></section><script>',
    '<!--',
    '&lt;script&gt;',
    '&amp;',
    'https://evil.example/x.js',
    '</ScRiPt >',
  ),
);

const SLOTS = [
  'file',
  'name',
  'description',
  'agent',
  'model',
  'input',
  'said',
  'thinking',
  'fetchId',
  'fetchTool',
  'key',
  'value',
  'output',
  'payId',
  'payTool',
  'payOutput',
  'reason',
  'code',
  'argument',
  'errorClass',
  'message',
  'path',
  'expected',
  'kind',
  'otherAgent',
] as const;
type Slots = Record<(typeof SLOTS)[number], string>;

/** zero-trust with every string a slot: the fetch taints, the payment is blocked by it (and denied by a person). */
function entryOf(s: Slots): ViewEntry {
  const t = structuredClone(shipped('zero-trust')) as Trajectory;
  Object.assign(t, { name: s.name, description: s.description, agent: s.agent, model: s.model, input: s.input });
  t.agents = { [s.otherAgent]: { request: t.request, tools: t.tools } };
  const [first, second] = t.turns;
  first!.agent = s.agent;
  second!.agent = s.otherAgent;
  first!.response.content = [
    { text: s.said },
    { thinking: s.thinking, signature: 'sig' },
    { toolUse: { id: s.fetchId, name: s.fetchTool, input: { [s.key]: s.value } } },
  ];
  first!.results = [{ id: s.fetchId, tool: s.fetchTool, outcome: 'ok', content: s.output }];
  second!.response.content = [{ toolUse: { id: s.payId, name: s.payTool, input: [s.value] } }];
  second!.approvals = [{ id: s.payId, approve: false, reason: s.reason }];
  second!.results = [
    {
      id: s.payId,
      tool: s.payTool,
      outcome: 'blocked',
      rule: 'taint',
      source: s.fetchTool,
      content: s.payOutput,
      code: s.code,
      argument: s.argument,
      errorClass: s.errorClass,
    },
  ];
  t.summary = {
    ...t.summary,
    taintSource: s.fetchTool,
    handoffs: [{ from: s.agent, to: s.otherAgent, reason: s.reason, turn: 1 }],
  };
  return {
    file: s.file,
    trajectory: t,
    verdict: {
      status: 'diverged',
      divergence: {
        turn: 2,
        path: s.path,
        expected: s.expected,
        actual: { [s.key]: s.value },
        message: s.message,
        kind: s.kind,
      },
    },
  };
}

/** The page's structure: each element's name, its attribute names, and the values of those legate writes itself. */
function structure(elements: readonly Element[]): string[] {
  return elements.map((e) => {
    const names = Object.keys(e.attributes).sort().join(',');
    return `${e.name} ${names} ${e.attributes.class ?? ''} ${e.attributes['data-outcome'] ?? ''}`;
  });
}

const slots = fc.tuple(...SLOTS.map(() => hostile)).map(
  (values) =>
    // A prefix per slot keeps different slots different (as different fields of a file may be).
    Object.fromEntries(SLOTS.map((slot, i) => [slot, `${i}~${values[i]}`])) as Slots,
);
const plain = (s: Slots) =>
  Object.fromEntries(
    Object.entries(s).map(([k, v]) => [
      k,
      v.replace(/^(\d+~)(.*)$/s, (_, p: string, rest: string) => p + 'x'.repeat(rest.length)),
    ]),
  ) as Slots;

describe('strings from a file on the page', () => {
  it('never open, close or attribute an element; the one script is the page’s own', () => {
    fc.assert(
      fc.property(slots, (s) => {
        const html = viewHtml([entryOf(s)], { title: s.name });
        const elements = elementsOf(html);
        expect(structure(elements)).toEqual(
          structure(elementsOf(viewHtml([entryOf(plain(s))], { title: plain(s).name }))),
        );
        expect(html.match(/<script/gi)).toHaveLength(1);
        expect(select(elements, 'script')).toHaveLength(1);
        // And they read back as they were.
        expect(select(elements, 'tr', { 'data-file': s.file })).toHaveLength(1);
        expect(select(elements, 'details', { 'data-call-id': s.payId })[0]!.attributes['data-tainted-by']).toBe(
          s.fetchId,
        );
        expect(select(elements, 'pre', { class: 'output' })[0]!.text).toBe(s.output);
        expect(select(elements, 'title')[0]!.text).toBe(s.name);
        expect(select(elements, 'article', { 'data-turn': '2' })[0]!.attributes['data-agent']).toBe(s.otherAgent);
      }),
      { numRuns: 150 },
    );
  });

  it('set aside in a comment (a page of many runs), never end it, and read back the same once it is opened', () => {
    const pageOf = (s: Slots, open: boolean) => {
      const runs = new PageRuns<string>(s.name, (body) => body);
      runs.add(entryOf(s));
      return [...runs.chunks((body) => body, open)].join('');
    };
    const content = /<section class="trajectory"[^>]*>([\s\S]*)<\/section>/;
    fc.assert(
      fc.property(slots, (s) => {
        const [open, inert] = [pageOf(s, true), pageOf(s, false)];
        const held = content.exec(inert)![1]!;
        // One comment, ended where legate ends it: nothing in it ends a comment (`-->`, `--!>`) or starts one.
        expect(held.startsWith('<!--') && held.endsWith('-->')).toBe(true);
        expect(held.slice(4, -3)).not.toMatch(/--|<!--/);
        // Opened (parsed as the page's script parses it), the same elements, attributes and text as laid out.
        const read = (html: string) =>
          elementsOf(html).map(({ name, attributes, text }) => ({ name, attributes, text }));
        const elements = elementsOf(held.slice(4, -3));
        expect(read(held.slice(4, -3))).toEqual(read(content.exec(open)![1]!));
        expect(select(elements, 'pre', { class: 'output' })[0]!.text).toBe(s.output);
        expect(inert.match(/<script/gi)).toHaveLength(1);
      }),
      { numRuns: 100 },
    );
  });

  it('on the diff page too', () => {
    const diffOf = (s: Slots) => {
      const a = entryOf(s).trajectory!;
      const b = structuredClone(a);
      b.turns[1]!.results![0]!.content = s.said;
      return diffHtml({ file: s.file, trajectory: a }, { file: s.name, trajectory: b });
    };
    fc.assert(
      fc.property(slots, (s) => {
        const html = diffOf(s);
        const elements = elementsOf(html);
        expect(structure(elements)).toEqual(structure(elementsOf(diffOf(plain(s)))));
        expect(html.match(/<script/gi)).toHaveLength(1);
        expect(select(elements, 'pre', { class: 'actual' })[0]!.text).toBe(JSON.stringify(s.said, null, 2));
      }),
      { numRuns: 100 },
    );
  });

  it('escapeHtml leaves no character that means something in HTML, and decodes back to the text', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const escaped = escapeHtml(text);
        expect(escaped).not.toMatch(/[<>"']/);
        expect(escaped.replace(/&(?!amp;|lt;|gt;|quot;|#39;)/g, '')).toBe(escaped);
        expect(elementsOf(`<p title="${escaped}">${escaped}</p>`)[0]).toMatchObject({
          text,
          attributes: { title: text },
        });
      }),
    );
  });
});
