import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toText } from '../../src/openapi/openApiText.js';
import type { SummaryRow } from '../../src/openapi/operationRows.js';
import type { SkippedOperation } from '../../src/openapi/index.js';

/**
 * The summary `legate openapi` prints, over generated sets of operations: every operation selected is
 * listed under each of its tags (or in one list when none has a tag), each tag's header counts what is
 * under it, and the operations not selected are counted by tag.
 */
const TAGS = ['pets', 'store', 'user', 'admin'];

interface Generated {
  tags: string[];
  selected: boolean;
  built: boolean;
}

const operation: fc.Arbitrary<Generated> = fc.record({
  tags: fc.subarray(TAGS),
  selected: fc.boolean(),
  built: fc.boolean(),
});

/** The groups by tag, each tag where it is first met, the operations without one last, as '(no tag)'. */
function inFirstMetOrder(rows: readonly SummaryRow[]): (readonly [string, SummaryRow[]])[] {
  const tags = [...new Set(rows.flatMap((row) => row.tags))];
  const groups = tags.map((tag) => [tag, rows.filter((row) => row.tags.includes(tag))] as const);
  const untagged = rows.filter((row) => row.tags.length === 0);
  return untagged.length > 0 ? [...groups, ['(no tag)', untagged] as const] : groups;
}

function summary(generated: readonly Generated[]): { rows: SummaryRow[]; text: string } {
  const rows: SummaryRow[] = generated.map((g, i) => ({
    operation: `GET /r${i}`,
    tags: g.tags,
    selected: g.selected,
    tool:
      g.selected && g.built
        ? { name: `op_${i}`, operation: `GET /r${i}`, untrusted: true, privileged: false, policy: undefined }
        : undefined,
  }));
  const skipped: SkippedOperation[] = rows
    .filter((row) => row.tool === undefined)
    .map((row) => ({
      operation: row.operation,
      reason: row.selected ? 'its request body is text/plain.' : 'not selected: not asked for.',
    }));
  return { rows, text: toText('Generated (OpenAPI 3.1.0)', rows, skipped) };
}

describe('the summary of a tool set', () => {
  it('property: lists each operation selected under each of its tags, groups counted, the rest counted by tag', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 12 }), (generated) => {
        const { rows, text } = summary(generated);
        const lines = text.split('\n');
        const selected = rows.filter((row) => row.selected);
        const tools = selected.filter((row) => row.tool !== undefined);
        const unselected = rows.filter((row) => !row.selected);
        expect(lines[0]).toBe(
          `Generated (OpenAPI 3.1.0): ${tools.length} tool${tools.length === 1 ? '' : 's'}, ` +
            `${selected.length - tools.length} operation${selected.length - tools.length === 1 ? '' : 's'} skipped` +
            (unselected.length > 0
              ? `, ${unselected.length} operation${unselected.length === 1 ? '' : 's'} not selected`
              : ''),
        );
        // The listing: from after the headline to the first blank line after it.
        const end = lines.indexOf('', 2);
        const listing = selected.length === 0 ? [] : lines.slice(2, end === -1 ? undefined : end);
        const groups = new Map<string, string[]>();
        let current: string[] = [];
        for (const line of listing) {
          if (line.startsWith('  ')) current.push(line);
          else {
            current = [];
            groups.set(line, current);
          }
        }
        const listed = (group: readonly SummaryRow[]) =>
          group.map((row) => `${row.tool?.name ?? '-'} ${row.operation} ${row.tool ? 'untrusted' : 'skipped'}`);
        const words = (lines: readonly string[]) => lines.map((line) => line.trim().split(/ +/).join(' '));
        if (selected.every((row) => row.tags.length === 0)) {
          expect([...groups.keys()]).toEqual(selected.length === 0 ? [] : ['Operations:']);
          if (selected.length > 0) expect(words(groups.get('Operations:')!)).toEqual(listed(selected));
        } else {
          const headers = inFirstMetOrder(selected).map(([tag, group]) => {
            const skips = group.filter((row) => row.tool === undefined).length;
            const counted = `${group.length} operation${group.length === 1 ? '' : 's'}`;
            return [`${tag}: ${counted}${skips > 0 ? `, ${skips} skipped` : ''}`, group] as const;
          });
          expect([...groups.keys()]).toEqual(headers.map(([header]) => header));
          for (const [header, group] of headers) expect(words(groups.get(header)!)).toEqual(listed(group));
        }
        const tagged = unselected.filter((row) => row.tags.length > 0);
        const notSelected = lines.findIndex((line) => line.startsWith('Not selected, by tag:'));
        if (tagged.length === 0) expect(notSelected).toBe(-1);
        else {
          const counted = lines
            .slice(notSelected)
            .join(' ')
            .replace('Not selected, by tag:', '')
            .split(',')
            .map((item) => item.trim());
          const expected = inFirstMetOrder(unselected).map(([tag, group]) => `${tag} (${group.length})`);
          expect(counted).toEqual(expected);
          for (const line of lines.slice(notSelected)) expect(line.length).toBeLessThanOrEqual(100);
        }
      }),
      { numRuns: 300 },
    );
  });
});
