import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineTool, toolChanges, type RecordedTool, type ToolAnnotations } from '../../src/index.js';
import { postureView } from '../../src/replay/toolChanges.js';
import { describeTool, describeTools } from '../../src/trajectory/describeTool.js';

type Declaration = Parameters<typeof defineTool>[0];

/** A tool as the header describes it, from a declaration (its definition and posture, as a recording takes them). */
function described(declaration: Partial<Declaration> & { name: string }): RecordedTool {
  const tool = defineTool({
    description: 'Reads an email.',
    input: { type: 'object', properties: { id: { type: 'string' } } },
    run: () => 'ok',
    ...declaration,
  } as Declaration);
  return describeTool(tool.definition(), tool);
}

const messages = (recorded: RecordedTool[], today: RecordedTool[], part?: 'seen' | 'posture') =>
  toolChanges(recorded, today, part).map((change) => change.message);

describe('toolChanges: the posture, in words', () => {
  const read = (declaration: Partial<Declaration> = {}) => described({ name: 'read_email', ...declaration });

  it.each([
    [{ untrusted: true }, {}, "tool 'read_email' was untrusted when recorded and is trusted now"],
    [{}, { untrusted: true }, "tool 'read_email' was trusted when recorded and is untrusted now"],
    [{}, { privileged: true }, "tool 'read_email' was not privileged when recorded and is privileged now"],
    [{ privileged: true }, {}, "tool 'read_email' was privileged when recorded and is not privileged now"],
    [
      { policy: 'mail' },
      { policy: 'admin' },
      "tool 'read_email' was gated by policy 'mail' when recorded and is gated by policy 'admin' now",
    ],
    [
      { policy: 'mail' },
      {},
      "tool 'read_email' was gated by policy 'mail' when recorded and is not gated by a policy now",
    ],
    [
      {},
      { compensatedBy: 'unread' },
      "tool 'read_email' was not compensated by a tool when recorded and is compensated by 'unread' now",
    ],
    [
      { maxResultLength: 1 },
      {},
      "tool 'read_email' was capped at 1 character of output when recorded and is not capped now",
    ],
    [
      {},
      { annotations: { readOnly: true, title: 'Read' } },
      "tool 'read_email' was not annotated (MCP's defaults apply) when recorded and is annotated as " +
        'titled "Read", read-only, not destructive, idempotent, open-world now',
    ],
    [
      { annotations: { openWorld: false } },
      { annotations: { openWorld: true } },
      "tool 'read_email' was closed-world when recorded and is open-world now",
    ],
    [
      { annotations: { title: 'Read' } },
      { annotations: { title: 'Read mail' } },
      `tool 'read_email' was titled "Read" when recorded and is titled "Read mail" now`,
    ],
    [
      { annotations: { destructive: false } },
      { annotations: { destructive: true } },
      "tool 'read_email' was not destructive when recorded and is destructive now",
    ],
  ] as [Partial<Declaration>, Partial<Declaration>, string][])('%o → %o', (before, after, message) => {
    expect(messages([read(before)], [read(after)])).toEqual([message]);
    expect(messages([read(before)], [read(after)], 'seen')).toEqual([]);
  });

  it('says each changed annotation on its own, with its name as the path', () => {
    const changes = toolChanges(
      [read({ annotations: { readOnly: true } })],
      [read({ annotations: { readOnly: false } })],
    );
    expect(changes.map(({ field, path, expected, actual }) => [field, path, expected, actual])).toEqual([
      ['annotations', 'readOnly', true, false],
      ['annotations', 'destructive', false, true],
      ['annotations', 'idempotent', true, false],
    ]);
  });
});

describe('toolChanges: what the model saw', () => {
  it('shows a changed description as a window around the first difference', () => {
    const long = 'Reads one email from the inbox. '.repeat(5);
    const [change] = toolChanges(
      [described({ name: 'read_email', description: `${long}Never deletes.` })],
      [described({ name: 'read_email', description: `${long}May delete.` })],
    );
    expect(change).toMatchObject({ tool: 'read_email', field: 'description', part: 'seen' });
    expect(change!.message).toMatch(
      /^tool 'read_email' has another description: …".*Never deletes\." when recorded, …".*May delete\." now$/,
    );
    expect(change!.message.length).toBeLessThan(long.length * 2);
  });

  it('gives a changed schema by its JSON path', () => {
    const before = described({ name: 'read_email', input: { type: 'object', properties: { id: { type: 'string' } } } });
    const after = described({ name: 'read_email', input: { type: 'object', properties: { id: { type: 'integer' } } } });
    expect(toolChanges([before], [after])).toEqual([
      {
        tool: 'read_email',
        field: 'inputSchema',
        part: 'seen',
        path: 'properties.id.type',
        expected: 'string',
        actual: 'integer',
        message:
          `tool 'read_email' has another input schema at properties.id.type: ` +
          `"string" when recorded, "integer" now`,
      },
    ]);
  });

  it('names tools added, removed and moved', () => {
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => described({ name }));
    expect(messages([a!, b!, c!], [c!, b!, d!])).toEqual([
      "tool 'a' was offered when recorded and is not now",
      "tool 'd' is offered now and was not when recorded",
      "tool 'b' is offered in another place: in the order b, c when recorded, c, b now",
    ]);
    expect(messages([a!, b!], [b!], 'posture')).toEqual([]);
  });

  it('compares only what a file recorded before the header kept descriptions and schemas', () => {
    const today = described({ name: 'read_email', untrusted: true, compensatedBy: 'x', description: 'New.' });
    const legacy: RecordedTool = { name: 'read_email', digest: 'sha256:0000000000000000' };
    expect(toolChanges([legacy], [today]).map(({ field }) => field)).toEqual(['digest', 'untrusted']);
    expect(messages([legacy], [today], 'seen')[0]).toContain('re-record it to see what changed');
    expect(toolChanges([{ ...legacy, digest: today.digest }], [{ ...today, untrusted: undefined }])).toEqual([]);
  });
});

describe('toolChanges: the property', () => {
  const word = fc.constantFrom('mail', 'admin', 'read', 'x');
  const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
  const annotations: fc.Arbitrary<ToolAnnotations | undefined> = optional(
    fc.record(
      {
        title: word,
        readOnly: fc.boolean(),
        destructive: fc.boolean(),
        idempotent: fc.boolean(),
        openWorld: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
  );
  const schema = fc
    .dictionary(fc.constantFrom('id', 'to', 'body'), fc.constantFrom('string', 'number', 'boolean'), { maxKeys: 3 })
    .map((properties) => ({
      type: 'object' as const,
      properties: Object.fromEntries(Object.entries(properties).map(([key, type]) => [key, { type }])),
    }));
  const tool = (name: fc.Arbitrary<string>) =>
    fc
      .record({
        name,
        description: optional(fc.constantFrom('Reads mail.', 'Reads mail, all of it.', 'Sends.')),
        input: schema,
        untrusted: fc.boolean(),
        privileged: fc.boolean(),
        policy: optional(word),
        compensatedBy: optional(word),
        maxResultLength: fc.constantFrom(0, 1, 500),
        annotations,
      })
      .map((declaration) => described(declaration as Declaration));

  it('is empty iff the described tools are equal, and names every field that differs', () => {
    fc.assert(
      fc.property(tool(fc.constant('t')), tool(fc.constant('t')), (before, after) => {
        const changes = toolChanges([before], [after]);
        expect(changes.length === 0).toBe(isDeepStrictEqual(before, after));
        const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
        keys.delete('digest'); // derived from the definition: a change to it is told by what changed
        const differing = [...keys].filter(
          (key) => !isDeepStrictEqual(before[key as keyof RecordedTool], after[key as keyof RecordedTool]),
        );
        expect(new Set(changes.map((change) => change.field))).toEqual(new Set(differing));
        for (const change of changes) expect(change.message).toContain("tool 't'");
      }),
      { numRuns: 300 },
    );
  });

  it("a description that shares the tool's schema (a replay's, compared and dropped) equals the kept one", () => {
    fc.assert(
      fc.property(fc.array(tool(fc.constantFrom('a', 'b', 'c')), { maxLength: 3 }), (kept) => {
        const tools = kept.map((t) =>
          defineTool({ name: t.name, input: t.inputSchema as never, run: () => 'ok', untrusted: t.untrusted }),
        );
        const definitions = tools.map((t) => t.definition());
        const copied = describeTools(definitions, tools);
        const shared = describeTools(definitions, tools, { shareSchema: true });
        expect(shared).toEqual(copied);
        for (const [i, definition] of definitions.entries()) {
          expect(shared[i]!.inputSchema).toBe(definition.input_schema);
          expect(copied[i]!.inputSchema).not.toBe(definition.input_schema);
        }
        // Every change the comparison finds is the same, whichever the description.
        expect(toolChanges(kept, shared, 'posture')).toEqual(toolChanges(kept, copied, 'posture'));
      }),
      { numRuns: 200 },
    );
  });

  it('finds the same posture changes in the views a replay redacts as in the whole descriptions', () => {
    // Some tools as recorded before the header kept what the model saw: no description, no schema.
    const either = tool(fc.constantFrom('a', 'b', 'c')).chain((described) =>
      fc.boolean().map((legacy) => {
        if (!legacy) return described;
        const { description: _description, inputSchema: _schema, ...older } = described;
        return older as RecordedTool;
      }),
    );
    const list = fc.array(either, { maxLength: 3 });
    fc.assert(
      fc.property(list, list, (recorded, today) => {
        const whole = toolChanges(recorded, today, 'posture');
        expect(toolChanges(recorded.map(postureView), today.map(postureView), 'posture')).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });

  it('over lists: names exactly the tools added and removed, and says nothing of posture for them', () => {
    const tools = fc.uniqueArray(tool(fc.constantFrom('a', 'b', 'c', 'd')), { selector: (t) => t.name, maxLength: 4 });
    fc.assert(
      fc.property(tools, tools, (before, after) => {
        const names = (list: RecordedTool[]) => new Set(list.map((t) => t.name));
        const [was, is] = [names(before), names(after)];
        const offered = toolChanges(before, after).filter((change) => change.field === 'tool');
        expect(offered.map((change) => change.tool).sort()).toEqual(
          [...[...was].filter((name) => !is.has(name)), ...[...is].filter((name) => !was.has(name))].sort(),
        );
        for (const change of toolChanges(before, after, 'posture'))
          expect(was.has(change.tool) && is.has(change.tool)).toBe(true);
        expect(toolChanges(before, before)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
