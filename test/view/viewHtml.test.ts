import { describe, expect, it } from 'vitest';
import { diffHtml, viewHtml } from '../../src/view/index.js';
import { parseTrajectory } from '../../src/index.js';
import { elementsOf, inside, select } from '../support/htmlElements.js';
import { corpus, shipped } from './shippedCorpus.js';

const page = (name: string, verdict?: Parameters<typeof viewHtml>[0][number]['verdict']) =>
  elementsOf(viewHtml([{ file: `trajectories/${name}.yaml`, trajectory: shipped(name), ...(verdict && { verdict }) }]));

describe('the page for the shipped corpus', () => {
  const html = viewHtml(corpus.map(({ file, trajectory }) => ({ file, trajectory })));
  const elements = elementsOf(html);

  it('stays under 300 KB', () => {
    expect(Buffer.byteLength(html, 'utf8')).toBeLessThan(300 * 1024);
  });

  it('names no URL but those the files hold (nothing is fetched)', () => {
    const urls = [...html.matchAll(/https?:\/\/[^\s"'<>&]+/g)].map((m) => m[0]);
    const fromFiles = corpus.map((entry) => entry.text).join('\n');
    expect(urls.filter((url) => !fromFiles.includes(url))).toEqual([]);
    expect(select(elements, '*', { src: undefined })).toEqual([]);
    expect(select(elements, 'link')).toEqual([]);
    expect(select(elements, 'script')).toHaveLength(1);
  });

  it('has an index row and a section per file, a heading order h1 → h2 → h3, and a labelled filter', () => {
    expect(select(elements, 'h1')).toHaveLength(1);
    for (const { file } of corpus) {
      expect(select(elements, 'tr', { 'data-file': file })).toHaveLength(1);
      const [section] = select(elements, 'section', { class: 'trajectory', 'data-file': file });
      expect(select(inside(elements, section!), 'h2')[0]!.text).toBe(file);
    }
    const levels = elements.filter((e) => /^h[1-6]$/.test(e.name)).map((e) => Number(e.name[1]));
    levels.forEach((level, i) => {
      if (i > 0) expect(level, `heading ${i} skips a level`).toBeLessThanOrEqual(levels[i - 1]! + 1);
    });
    expect(
      select(elements, 'input', { type: 'search', id: 'filter', 'aria-label': 'Filter trajectories' }),
    ).toHaveLength(1);
    expect(select(elements, 'th', { scope: 'col' }).length).toBeGreaterThan(5);
  });

  it('gives every element a unique id, and every link to an anchor a target', () => {
    const ids = elements.flatMap((e) => (e.attributes.id === undefined ? [] : [e.attributes.id]));
    expect(new Set(ids).size).toBe(ids.length);
    for (const link of select(elements, 'a', { href: undefined }))
      expect(ids, `${link.attributes.href} has no target`).toContain(link.attributes.href!.slice(1));
  });

  it('shows each turn of each file with its agent, and each call with its outcome', () => {
    for (const { file, trajectory } of corpus) {
      const [section] = select(elements, 'section', { 'data-file': file });
      const within = inside(elements, section!);
      const turns = select(within, 'article', { class: 'turn' }).filter(
        (t) => !select(within, 'div', { class: 'subrun' }).some((s) => t.start > s.start && t.end <= s.end),
      );
      expect(turns.map((t) => Number(t.attributes['data-turn']))).toEqual(trajectory.turns.map((_, i) => i + 1));
      expect(turns.map((t) => t.attributes['data-agent'])).toEqual(
        trajectory.turns.map((t) => t.agent ?? trajectory.agent),
      );
      for (const call of select(within, 'details', { class: 'call' })) {
        expect(call.attributes['data-outcome']).toMatch(
          /^(ok|error|invalid|blocked|planned|suspended|incomplete|served)$/,
        );
        expect(call.attributes['data-lane']).toBeTruthy();
        expect(select(inside(elements, call), 'pre', { class: 'input' }).length).toBeGreaterThan(0);
      }
    }
  });
});

describe('a page whose files repeat call ids', () => {
  // The same run three times: as recorded, again, and with every call id given `-2` (the suffix the page adds to a
  // repeated id): a call's anchor, and a "tainted by" link, must still be its own file's.
  const zeroTrust = corpus.find((entry) => entry.file.endsWith('zero-trust.yaml'))!;
  const renamed = zeroTrust.text.replace(/\b(toolu_[A-Za-z0-9_]+)/g, '$1-2');
  const files = [
    { file: 'a.yaml', trajectory: zeroTrust.trajectory },
    { file: 'b.yaml', trajectory: zeroTrust.trajectory },
    { file: 'c.yaml', trajectory: parseTrajectory(renamed, 'c.yaml') },
  ];
  const elements = elementsOf(viewHtml(files));

  it('gives every element a unique id, and each tainted-by link a target in its own file', () => {
    const ids = elements.flatMap((e) => (e.attributes.id === undefined ? [] : [e.attributes.id]));
    expect(new Set(ids).size).toBe(ids.length);
    let links = 0;
    for (const { file } of files) {
      const [section] = select(elements, 'section', { 'data-file': file });
      const within = inside(elements, section!);
      for (const link of select(within, 'a', { class: 'tainted-by' })) {
        links += 1;
        expect(
          select(within, '*', { id: link.attributes.href!.slice(1) }),
          `${file}: ${link.attributes.href}`,
        ).toHaveLength(1);
      }
    }
    expect(links).toBeGreaterThanOrEqual(3);
  });
});

describe('the page of one trajectory', () => {
  it('zero-trust: the blocked call says rule and source in words, and links to the call that tainted', () => {
    const elements = page('zero-trust');
    const [blocked] = select(elements, 'details', { class: 'call', 'data-outcome': 'blocked' });
    expect(blocked!.attributes).toMatchObject({
      'data-rule': 'taint',
      'data-source': 'fetch_page',
      'data-tainted-by': 'toolu_s1_1',
    });
    const summary = select(inside(elements, blocked!), 'summary')[0]!;
    expect(summary.text).toContain('send_payment');
    expect(summary.text).toContain('blocked · taint · from fetch_page');
    expect(summary.text).toContain('tainted by fetch_page (turn 1)');
    const [source] = select(elements, 'details', { 'data-taints': 'true' });
    expect(source!.attributes['data-call-id']).toBe('toolu_s1_1');
    const [link] = select(elements, 'a', { class: 'tainted-by' });
    expect(link!.attributes.href).toBe(`#${source!.attributes.id}`);
    expect(source!.attributes.id).toBe('call-toolu_s1_1');
    expect(link!.text).toBe('tainted by fetch_page (turn 1)');
    expect(select(inside(elements, source!), 'pre', { class: 'input' })[0]!.text).toContain(
      'https://example.com/invoice/42',
    );
  });

  it('handoff-to-billing: two lanes, each turn labelled with its agent, the handoff marked', () => {
    const elements = page('handoff-to-billing');
    const turns = select(elements, 'article', { class: 'turn' });
    expect(new Set(turns.map((t) => t.attributes['data-lane']))).toEqual(new Set(['triage', 'billing']));
    expect(turns.map((t) => select(inside(elements, t), 'span', { class: 'lane-label' })[0]?.text)).toEqual(
      turns.map((t) => t.attributes['data-agent']),
    );
    const [handoff] = select(elements, 'p', { class: 'handoff' });
    expect(handoff!.text).toBe('Handoff: triage → billing (a refund for order A-1001)');
  });

  it('badges say each outcome in words', () => {
    const summaryOf = (name: string, outcome: string) =>
      select(page(name), 'details', { 'data-outcome': outcome }).map((d) => d.text);
    expect(summaryOf('invalid-argument-corrected', 'invalid')[0]).toMatch(/invalid · \w+/);
    expect(summaryOf('tool-failure', 'error')[0]).toContain('failed · ');
    expect(summaryOf('shadow-refund', 'planned')[0]).toContain('planned');
    expect(summaryOf('approval-denied', 'blocked')[0]).toContain(
      'denied · by a person · Globex is not an approved supplier.',
    );
    expect(summaryOf('approval-granted', 'ok').join(' ')).toContain('approved · by a person');
  });

  it('a diverged replay: marked at its turn and path, expected and actual side by side; the row says diverged', () => {
    const elements = page('zero-trust', {
      status: 'diverged',
      divergence: {
        turn: 2,
        path: 'messages[2].content[0].text',
        expected: 'old <b>',
        actual: 'new',
        message: 'm',
        kind: 'request',
      },
    });
    const [mark] = select(elements, 'div', { class: 'divergence' });
    expect(mark!.attributes).toMatchObject({ 'data-turn': '2', 'data-path': 'messages[2].content[0].text' });
    const [turn2] = select(elements, 'article', { 'data-turn': '2' });
    expect(mark!.start > turn2!.start && mark!.end <= turn2!.end).toBe(true);
    expect(select(inside(elements, mark!), 'pre', { class: 'expected' })[0]!.text).toBe('"old <b>"');
    expect(select(inside(elements, mark!), 'pre', { class: 'actual' })[0]!.text).toBe('"new"');
    expect(select(elements, 'tr', { 'data-file': 'trajectories/zero-trust.yaml' })[0]!.text).toContain('diverged');
  });

  it('a tool the file serves: its calls say they are served from the recording', () => {
    const trajectory = { ...structuredClone(shipped('zero-trust')), serve: ['fetch_page'] };
    const elements = elementsOf(viewHtml([{ file: 'served.yaml', trajectory }]));
    const [fetch] = select(elements, 'details', { 'data-tool': 'fetch_page' });
    expect(fetch!.attributes['data-outcome']).toBe('served');
    expect(select(inside(elements, fetch!), 'summary')[0]!.text).toContain('served from the recording');
    expect(select(elements, 'details', { 'data-tool': 'send_payment' })[0]!.attributes['data-outcome']).toBe('blocked');
  });

  it('a file with several conversations: each under its own heading, headings still in order', () => {
    const { conversations: _none, ...first } = structuredClone(shipped('zero-trust'));
    const second = structuredClone(shipped('handoff-to-billing'));
    const { version, name, recordedAt, legate, ...run } = second;
    const trajectory = { ...first, conversations: [run] };
    const elements = elementsOf(viewHtml([{ file: 'two.yaml', trajectory }]));
    expect(select(elements, 'h3').map((h) => h.text)).toEqual([
      'Conversation 1 of 2 · claude-haiku-5-5',
      'Conversation 2 of 2 · claude-haiku-5-5',
    ]);
    expect(select(elements, 'h4').map((h) => h.text)).toEqual([
      'Turn 1',
      'Turn 2',
      'Turn 3',
      'Turn 1 · triage',
      'Turn 2 · billing',
      'Turn 3 · billing',
      'Turn 4 · billing',
    ]);
    expect(select(elements, 'details', { 'data-tainted-by': 'toolu_s1_1' })).toHaveLength(1);
  });

  it('a missing file: a row and a section saying so', () => {
    const elements = elementsOf(
      viewHtml([
        {
          file: 'gone.yaml',
          trajectory: undefined,
          verdict: { status: 'missing', message: 'no such file: gone.yaml' },
        },
      ]),
    );
    expect(select(elements, 'tr', { 'data-file': 'gone.yaml' })[0]!.text).toContain('missing');
    expect(select(elements, 'section', { 'data-file': 'gone.yaml' })[0]!.text).toContain('no such file: gone.yaml');
  });
});

describe('the diff page', () => {
  it('shows both files side by side and marks their first difference at its turn in each', () => {
    const a = shipped('zero-trust');
    const b = structuredClone(a);
    b.turns[1]!.results![0]!.outcome = 'ok';
    const elements = elementsOf(diffHtml({ file: 'a.yaml', trajectory: a }, { file: 'b.yaml', trajectory: b }));
    expect(select(elements, 'section', { 'data-file': 'a.yaml' })).toHaveLength(1);
    expect(select(elements, 'section', { 'data-file': 'b.yaml' })).toHaveLength(1);
    const marks = select(elements, 'div', { class: 'divergence' });
    expect(marks.length).toBeGreaterThan(0);
    for (const mark of marks) {
      expect(mark.attributes).toMatchObject({ 'data-turn': '2', 'data-path': 'results[0].outcome' });
      expect(select(inside(elements, mark), 'pre', { class: 'expected' })[0]!.text).toBe('"blocked"');
      expect(select(inside(elements, mark), 'pre', { class: 'actual' })[0]!.text).toBe('"ok"');
    }
  });

  it('shows a difference outside the turns above the two columns', () => {
    const a = shipped('zero-trust');
    const b = { ...structuredClone(a), description: 'changed <b>' };
    const elements = elementsOf(diffHtml({ file: 'a.yaml', trajectory: a }, { file: 'b.yaml', trajectory: b }));
    const [mark, ...more] = select(elements, 'div', { class: 'divergence' });
    expect(more).toEqual([]);
    expect(mark!.attributes).toMatchObject({ 'data-turn': '0', 'data-path': 'description' });
    expect(select(elements, 'pre', { class: 'actual' })[0]!.text).toBe('"changed <b>"');
    expect(select(elements, 'section').every((section) => section.start > mark!.end)).toBe(true);
  });

  it('says when the files agree', () => {
    const a = shipped('zero-trust');
    const html = diffHtml({ file: 'a.yaml', trajectory: a }, { file: 'b.yaml', trajectory: structuredClone(a) });
    expect(select(elementsOf(html), 'div', { class: 'divergence' })).toEqual([]);
    expect(html).toContain('The two files agree');
  });
});

describe('a call argument provenance refused', () => {
  it('says in words which argument was not traced, its value, and where it was found', () => {
    const html = viewHtml([{ file: 'trajectories/provenance-traced.yaml', trajectory: shipped('provenance-traced') }]);
    expect(html).toContain('untraced to &quot;99-1234-5678&quot; · found only in fetch_page');
    expect(html.match(/untraced to/g)).toHaveLength(1); // the payment the user asked for is traced, and ran
  });
});
