import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../src/index.js';
import { FORMAT_CHECKS, JSON_SCHEMA_FORMATS } from '../../src/tools/schema/formats.js';
import { KEYWORDS } from '../../src/tools/schema/schemaKeywords.js';

// docs/tools.md states what input schemas may say and what the model reads when a call is refused.
// This test holds it to the code: every keyword of legate's one keyword table is in the doc where its
// role says, each refused one with the advice the error gives, every format where it belongs, and the
// doc's example refusals of the 'ship' tool are the binder's messages, word for word.

const doc = readFileSync('docs/tools.md', 'utf8');
/** Markdown text as read: line breaks inside a paragraph or a code span are spaces. */
const flat = (text: string) => text.replace(/\s*\n\s*/g, ' ');

function section(from: string, to: string): string {
  const start = doc.indexOf(from);
  const end = doc.indexOf(to, start);
  if (start === -1 || end === -1) throw new Error(`docs/tools.md has no section from '${from}' to '${to}'`);
  return doc.slice(start, end);
}

const checkedPart = section('### What is checked', '**Refused**');
const refusedPart = section('**Refused**', '### What the model is shown');
const refusedRows = refusedPart.split('\n').filter((line) => line.startsWith('| '));
/** Quotes as the doc writes them (code spans) and as errors write them ('x') compared alike. */
const unquoted = (text: string) => text.replace(/[`']/g, '');

describe('docs/tools.md, what a schema may say', () => {
  it('lists every checked keyword under "What is checked"', () => {
    const checked = Object.entries(KEYWORDS)
      .filter(([, role]) => role.role === 'checked')
      .map(([keyword]) => keyword);
    expect(checked.filter((keyword) => !checkedPart.includes(`\`${keyword}\``))).toEqual([]);
  });

  it('lists every refused keyword with the advice its error gives', () => {
    const missing = Object.entries(KEYWORDS).flatMap(([keyword, role]) => {
      if (role.role !== 'refused') return [];
      const row = refusedRows.find((line) => line.split('|')[1]!.includes(`\`${keyword}\``));
      return row !== undefined && unquoted(row).includes(unquoted(role.advice)) ? [] : [keyword];
    });
    expect(missing).toEqual([]);
  });

  it('lists the formats the binder checks as checked, and the other JSON Schema formats as refused', () => {
    const checkedFormats = [...FORMAT_CHECKS.keys()];
    expect(checkedFormats.filter((format) => !checkedPart.includes(`\`${format}\``))).toEqual([]);
    const unchecked = [...JSON_SCHEMA_FORMATS].filter((format) => !FORMAT_CHECKS.has(format));
    const formatRow = refusedRows.find((line) => line.includes('a format JSON Schema defines'))!;
    expect(unchecked.filter((format) => !formatRow.includes(`\`${format}\``))).toEqual([]);
    expect(checkedFormats.filter((format) => formatRow.includes(`\`${format}\``))).toEqual([]);
  });
});

describe("docs/tools.md, the example refusals of the tools 'ship' and 'pack'", () => {
  const ship = defineTool({
    name: 'ship',
    description: 'Ships parcels.',
    input: {
      type: 'object',
      properties: {
        weight: { type: 'integer', minimum: 1, maximum: 30 },
        unit: { type: 'string', enum: ['kg', 'lb'] },
        address: {
          type: 'object',
          properties: { street: { type: 'string' }, zip: { type: 'string', pattern: '^[0-9]{5}$' } },
          required: ['street', 'zip'],
        },
        parts: { type: 'array', items: { type: 'string', maxLength: 4 }, minItems: 1, maxItems: 3 },
      },
      required: ['weight', 'unit', 'address'],
    },
    run: () => 'shipped',
  });
  const pack = defineTool({
    name: 'pack',
    description: 'Packs parcels.',
    input: {
      type: 'object',
      properties: {
        labels: { type: 'array', items: { type: 'string' }, uniqueItems: true, contains: { const: 'box' } },
        size: { oneOf: [{ type: 'integer' }, { type: 'number', minimum: 0 }] },
        to: {
          anyOf: [
            { type: 'object', properties: { zip: { type: 'string', pattern: '^[0-9]{5}$' } }, required: ['zip'] },
            {
              type: 'object',
              properties: { lat: { type: 'number' }, lon: { type: 'number' } },
              required: ['lat', 'lon'],
            },
          ],
        },
      },
    },
    run: () => 'packed',
  });
  const valid = { weight: 2, unit: 'kg', address: { street: 'Main St', zip: '12345' } };
  const documented = flat(section('## Refusals', '## Tool output'));

  it.each([
    ['required', { unit: 'kg', address: valid.address }],
    ['out_of_range', { ...valid, weight: 31 }],
    ['too_long', { ...valid, parts: ['abcde'] }],
    ['too_short', { ...valid, parts: [] }],
    ['invalid_format', { ...valid, address: { street: 'Main St', zip: '1234' } }],
    ['not_a_known_value', { ...valid, unit: 'stone' }],
    ['unknown_argument', { ...valid, colour: 'red' }],
    ['not_parsable', '{"weight": 2'],
  ])("shows 'ship''s %s message as the binder gives it", (code, input) => {
    const result = ship.bind(input);
    if (result.ok) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
    expect(result.invalid.code).toBe(code);
    expect(documented).toContain(`\`${result.invalid.message}\``);
  });

  it.each([
    ['duplicate_item', { labels: ['box', 'box'] }],
    ['missing_item', { labels: ['bag'] }],
    ['ambiguous', { size: 3 }],
    ['invalid_format', { to: { zip: '123' } }],
    ['invalid_type', { to: 'x' }],
  ])("shows 'pack''s %s message as the binder gives it", (code, input) => {
    const result = pack.bind(input);
    if (result.ok) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
    expect(result.invalid.code).toBe(code);
    expect(documented).toContain(`\`${result.invalid.message}\``);
  });
});
