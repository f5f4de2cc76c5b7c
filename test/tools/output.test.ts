import { describe, expect, it } from 'vitest';
import { capOutput } from '../../src/tools/result/capOutput.js';
import { collectOutput, isContentBlocks, renderOutput } from '../../src/tools/result/renderOutput.js';

describe('renderOutput', () => {
  it('keeps text, renders JSON values as JSON, and passes well-formed content blocks through', () => {
    expect(renderOutput('plain')).toBe('plain');
    expect(renderOutput(42)).toBe('42');
    expect(renderOutput(null)).toBe('null');
    expect(renderOutput({ a: [1, 'x'] })).toBe('{"a":[1,"x"]}');
    expect(renderOutput(undefined)).toBe('');
    const blocks = [
      { type: 'text', text: 'a' },
      { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
    ];
    expect(renderOutput(blocks)).toBe(blocks);
  });

  it('treats arrays whose items name no block type as JSON', () => {
    expect(isContentBlocks([])).toBe(false);
    expect(isContentBlocks([{ type: 'row', id: 1 }])).toBe(false);
    expect(renderOutput([{ type: 'row', id: 1 }])).toBe('[{"type":"row","id":1}]');
  });

  it('throws on a value JSON cannot carry, for the runtime to report as a tool failure', () => {
    expect(() => renderOutput(10n)).toThrow(TypeError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => renderOutput(cyclic)).toThrow(TypeError);
  });
});

describe('collectOutput', () => {
  it('joins an async iterable of strings, keeps other items as an array', async () => {
    const signal = new AbortController().signal;
    async function* strings() {
      yield 'a';
      yield 'b';
    }
    async function* rows() {
      yield { id: 1 };
      yield { id: 2 };
    }
    expect(await collectOutput(strings(), signal)).toBe('ab');
    expect(await collectOutput(rows(), signal)).toEqual([{ id: 1 }, { id: 2 }]);
    expect(await collectOutput('as is', signal)).toBe('as is');
  });
});

describe('capOutput', () => {
  it('leaves output within the cap alone, and treats 0 as no cap', () => {
    expect(capOutput('t', 'short', 10)).toEqual({ content: 'short' });
    expect(capOutput('t', 'x'.repeat(1000), 0)).toEqual({ content: 'x'.repeat(1000) });
  });

  it('replaces text past the cap with a notice saying what was withheld and what to do', () => {
    const capped = capOutput('dump_table', 'abcdefghij', 4);
    expect(capped.withheld).toEqual({ length: 10, shown: 4 });
    expect(capped.content).toBe(
      `abcd\n\n[Output withheld: tool 'dump_table' produced 10 characters, more than its limit of 4; only the ` +
        'first 4 are shown. Narrow the request (filter, paginate, or ask for fewer fields) to see the rest.]',
    );
  });

  it('never splits a surrogate pair', () => {
    const capped = capOutput('t', 'ab😀cd', 3);
    expect((capped.content as string).startsWith('ab\n')).toBe(true);
  });

  it('caps the text of content blocks as a whole, keeping images', () => {
    const image = { type: 'image' as const, source: { type: 'url' as const, url: 'https://example.com/a.png' } };
    const capped = capOutput('t', [{ type: 'text', text: 'abc' }, image, { type: 'text', text: 'defgh' }], 5);
    expect(capped.content).toEqual([
      { type: 'text', text: 'abc' },
      image,
      { type: 'text', text: 'de' },
      { type: 'text', text: expect.stringContaining('[Output withheld') },
    ]);
  });
});
