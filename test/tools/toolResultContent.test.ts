import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolResultError, toolError, type ToolResultContent } from '../../src/index.js';
import { capOutput } from '../../src/tools/result/capOutput.js';
import { renderOutput } from '../../src/tools/result/renderOutput.js';
import { caught } from '../support/caught.js';
import { EXAMPLES, PDF_BASE64, PNG_BASE64 } from '../support/toolResultExamples.js';
import { allowedContent } from './toolResultArbitraries.js';

describe('content blocks a tool returns', () => {
  it.each(Object.entries(EXAMPLES))('passes the documented %s example through as it is', (_kind, blocks) => {
    expect(renderOutput(blocks)).toBe(blocks);
  });

  const refused: [string, unknown[], string, string][] = [
    [
      'a block type a tool_result does not take',
      [...EXAMPLES.text, { type: 'video', url: 'https://x' }],
      'content[1].type',
      '"video"',
    ],
    [
      'an image type the API does not read',
      [{ type: 'image', source: { type: 'base64', media_type: 'image/bmp', data: PNG_BASE64 } }],
      'content[0].source.media_type',
      '"image/bmp"',
    ],
    ['an image without a source', [{ type: 'image' }], 'content[0].source', 'missing'],
    [
      'a base64 document that is not a PDF',
      [{ type: 'document', source: { type: 'base64', media_type: 'text/plain', data: PDF_BASE64 } }],
      'content[0].source.media_type',
      '"text/plain"',
    ],
    [
      'a search result holding an image',
      [{ ...EXAMPLES.searchResults[0], content: EXAMPLES.imageUrl }],
      'content[0].content[0].type',
      '"image"',
    ],
    [
      'a search result without a title',
      [{ type: 'search_result', source: 's', content: [] }],
      'content[0].title',
      'missing',
    ],
    // The API answers 400 "text content blocks must contain non-whitespace text" (anthropics/claude-code#23440).
    ['a blank text block', [{ type: 'text', text: ' \n' }], 'content[0].text', 'blank'],
    [
      'a field the API does not know',
      [{ type: 'image', source: EXAMPLES.imageUrl[0]!.source, alt: 'an ant' }],
      'content[0].alt',
      'alt',
    ],
    ['text that is not a string', [{ type: 'text', text: 42 }], 'content[0].text', '42'],
    [
      'citations turned on with a non-boolean',
      [{ ...EXAMPLES.plainTextDocument[0], citations: { enabled: 'yes' } }],
      'content[0].citations.enabled',
      '"yes"',
    ],
  ];

  it.each(refused)('refuses %s, saying where, what arrived and what to do', (_case, blocks, path, arrived) => {
    const error = caught(() => renderOutput(blocks), ToolResultError);
    expect(error).toMatchObject({ code: 'invalid_tool_result', path });
    expect(error.message).toContain(path);
    expect(error.message).toContain(arrived);
    expect(error.message).toMatch(/tool_result takes/);
  });

  it('renders a list of records that are not content blocks as JSON, as before', () => {
    expect(renderOutput([{ type: 'row', id: 1 }])).toBe('[{"type":"row","id":1}]');
    expect(renderOutput([{ kind: 'text' }, 'text'])).toBe('[{"kind":"text"},"text"]');
    expect(renderOutput([])).toBe('[]');
  });

  it('takes a list with any item naming a block type as content, so a stray item is an error, not JSON', () => {
    const error = caught(() => renderOutput([{ type: 'text', text: 'a' }, { type: 'row' }]), ToolResultError);
    expect(error.path).toBe('content[1].type');
  });

  it('accepts any content a tool_result takes, unchanged (property)', () => {
    fc.assert(
      fc.property(allowedContent, (blocks) => {
        expect(renderOutput(blocks)).toBe(blocks);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses the same content with one field broken (property)', () => {
    const broken = fc.tuple(allowedContent, fc.nat(), fc.constantFrom('drop type', 'unknown field', 'type a number'));
    fc.assert(
      fc.property(broken, ([blocks, at, how]) => {
        const copy = structuredClone(blocks) as unknown as Record<string, unknown>[];
        const block = copy[at % copy.length]!;
        if (how === 'drop type') delete block.type;
        if (how === 'unknown field') block.colour = 'red';
        if (how === 'type a number') block.type = 7;
        // A list no block of which names a content kind is data (JSON), not a malformed block.
        if (copy.every((b) => typeof b.type !== 'string')) return;
        expect(() => renderOutput(copy)).toThrow(ToolResultError);
      }),
      { numRuns: 300 },
    );
  });
});

describe('toolError', () => {
  it('wraps text or content blocks as an error result, checked like any output', () => {
    expect(toolError('No such order: A-9.').content).toBe('No such order: A-9.');
    expect(toolError(EXAMPLES.text).content).toBe(EXAMPLES.text);
    expect(() => toolError([{ type: 'image' }] as never)).toThrow(ToolResultError);
  });

  it('refuses content that is neither text nor content blocks, saying what arrived', () => {
    const error = caught(() => toolError({ reason: 'x' } as never), ToolResultError);
    expect(error).toMatchObject({ code: 'invalid_tool_result', path: 'content' });
    expect(error.message).toContain('the object');
  });
});

describe('maxResultLength over content blocks', () => {
  const cap = (content: ToolResultContent[], max: number) => capOutput('t', content, max);

  it('counts and cuts the text the model reads: text blocks, search results, plain-text documents', () => {
    const capped = cap([...EXAMPLES.searchResults, ...EXAMPLES.plainTextDocument], 40);
    expect(capped.withheld).toEqual({ length: 162 + 140 + 36, shown: 40 });
    expect(capped.content).toEqual([
      {
        ...EXAMPLES.searchResults[0],
        content: [{ type: 'text', text: EXAMPLES.searchResults[0]!.content[0]!.text.slice(0, 40) }],
      },
      { type: 'text', text: expect.stringContaining("[Output withheld: tool 't' produced 338 characters") },
    ]);
  });

  it('cuts a document of custom content block by block, dropping what nothing is left for', () => {
    const capped = cap(EXAMPLES.customContentDocument, 13);
    expect(capped.withheld).toEqual({ length: 23, shown: 13 });
    expect((capped.content as ToolResultContent[])[0]).toEqual({
      ...EXAMPLES.customContentDocument[0],
      source: {
        type: 'content',
        content: [
          { type: 'text', text: 'First chunk' },
          { type: 'text', text: 'Se' },
        ],
      },
    });
  });

  it('keeps images, PDFs and tool references whole: they are not text to count', () => {
    const content = [...EXAMPLES.imageBase64, ...EXAMPLES.pdfBase64, ...EXAMPLES.pdfUrl, ...EXAMPLES.toolReference];
    const capped = cap(content, 4);
    expect(capped.content).toEqual([
      { type: 'text', text: 'The ' },
      EXAMPLES.imageBase64[1],
      ...EXAMPLES.pdfBase64,
      ...EXAMPLES.pdfUrl,
      ...EXAMPLES.toolReference,
      { type: 'text', text: expect.stringContaining('[Output withheld') },
    ]);
  });

  it('leaves content the API takes, whatever the cap (property)', () => {
    fc.assert(
      fc.property(allowedContent, fc.integer({ min: 1, max: 400 }), (blocks, max) => {
        const capped = cap(blocks, max);
        if (typeof capped.content === 'string') throw new Error('blocks became text');
        expect(() => renderOutput(capped.content)).not.toThrow();
        if (capped.withheld !== undefined) expect(capped.withheld.shown).toBe(max);
      }),
      { numRuns: 300 },
    );
  });
});

describe('where a refusal points', () => {
  it('names the fields a block needs when one is missing', () => {
    const error = caught(() => renderOutput([{ type: 'search_result', source: 's', content: [] }]), ToolResultError);
    expect(error.problem).toBe('content[0].title is missing; here type, source, title, content are required');
  });

  it('quotes a field name that is not a plain name, escaped', () => {
    const error = caught(() => renderOutput([{ type: 'text', text: 'a', 'alt text\n': 'x' }]), ToolResultError);
    expect(error.path).toBe('content[0]["alt text\\n"]');
  });
});
