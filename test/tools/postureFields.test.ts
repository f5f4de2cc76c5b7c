import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ToolDeclarationError, defineTool, serverTool, toolChanges } from '../../src/index.js';
import { toolFacts } from '../../src/guard/guardContext.js';
import { POSTURE_FIELDS, type PostureName } from '../../src/tools/postureFields.js';
import { describeTool, describeTools } from '../../src/trajectory/describeTool.js';
import { recordedTool } from '../../src/trajectory/format/header.js';
import { planOf, type ObjectPlan } from '../../src/trajectory/format/plan.js';
import { caught } from '../support/caught.js';

// The one table of posture fields (src/tools/postureFields.ts), held to every place that names its
// fields: a field added to the table, or to one of those places, alone fails here.

type Declaration = Parameters<typeof defineTool>[0];

/**
 * For each field, a declaration that gives it a value other than its default: `set` on top of
 * `base` (what the field needs besides, e.g. privileged), so a tool declared with `base` alone
 * differs from it in that field only.
 */
const SAMPLES: Record<PostureName, { base?: Partial<Declaration>; set: Partial<Declaration> }> = {
  untrusted: { set: { untrusted: true } },
  privileged: { set: { privileged: true } },
  policy: { set: { policy: 'mail' } },
  compensatedBy: { set: { compensatedBy: 'unsend' } },
  maxResultLength: { set: { maxResultLength: 100 } },
  annotations: { set: { annotations: { readOnly: true } } },
  remote: { set: { remote: true } },
  sensitive: { base: { privileged: true }, set: { sensitive: ['id'] } },
  outsideAuthored: { base: { untrusted: true }, set: { outsideAuthored: ['subject'] } },
  onTaint: { base: { privileged: true }, set: { onTaint: 'approve' } },
  wireNames: {
    set: {
      input: { type: 'object', properties: { id: { type: 'string' }, 'before<': { type: 'string' } } },
      renameUnsafeProperties: true,
    },
  },
};

const define = (declaration: Partial<Declaration>) =>
  defineTool({
    name: 'read_email',
    description: 'Reads an email.',
    input: { type: 'object', properties: { id: { type: 'string' } } },
    run: () => 'ok',
    ...declaration,
  } as Declaration);

/** A tool with the field set, and one without it that is otherwise the same. */
function pair(name: PostureName) {
  const sample = SAMPLES[name];
  expect(sample, `test/tools/postureFields.test.ts has no sample declaration of '${name}'`).toBeDefined();
  return { set: define({ ...sample.base, ...sample.set }), unset: define(sample.base ?? {}) };
}

/** A tool that declares every field. */
const everything = () =>
  define(Object.assign({}, ...Object.values(SAMPLES).flatMap((sample) => [sample.base ?? {}, sample.set])));

const names = POSTURE_FIELDS.map((field) => field.name);
const recorded = POSTURE_FIELDS.filter((field) => field.header !== 'none');
/** What a defined tool holds besides its posture. */
const TOOL_OWN = [
  'name',
  'description',
  'inputSchema',
  'outputSchema',
  'annotated',
  'hasOwnRules',
  'warnings',
  'bind',
  'run',
  'definition',
  'mcpAnnotations',
];
/** What a header records of a tool besides its posture: what the model was shown. */
const HEADER_OWN = ['name', 'type', 'digest', 'description', 'inputSchema'];

describe('the posture table: every place that names a field derives it from the table', () => {
  it.each(POSTURE_FIELDS.map((field) => [field.name, field] as const))(
    '%s: declared, held, checked, recorded and compared',
    (name, field) => {
      const { set, unset } = pair(name);
      // Declared by its option, held by the tool: a value other than the default, and the default without it.
      expect(set[name], 'the tool holds a value other than the default').not.toEqual(field.default);
      expect(unset[name] ?? field.default).toEqual(field.default);

      const [after, before] = [describeTool(set.definition(), set), describeTool(unset.definition(), unset)];
      const written = after as Record<string, unknown>;
      const changes = toolChanges([before], [after], 'posture');
      if (field.header === 'none') {
        expect(after).not.toHaveProperty(name);
        expect(changes).toEqual([]);
      } else {
        // Written by describeTool where the tool declares it, not where it does not; read by the header's schema.
        expect(written[name], 'describeTool writes it').toBeDefined();
        expect(before).not.toHaveProperty(name);
        expect((recordedTool.parse(after) as Record<string, unknown>)[name]).toEqual(written[name]);
        // Compared by a replay, in words.
        expect(changes.map((change) => change.field)).toContain(name);
        const change = changes.find((c) => c.field === name)!;
        expect(change.part).toBe('posture');
        expect(change.message).toMatch(/^tool 'read_email' was .+ when recorded and is .+ now$/);
        expect(toolChanges([after], [before], 'posture').map((c) => c.field)).toContain(name);
      }

      // The guard's facts hold it where the table says the guard decides by it.
      const facts = toolFacts(set, undefined);
      if ('guard' in field) expect(facts[name as keyof typeof facts]).toEqual(set[name]);
      else expect(facts).not.toHaveProperty(name);
    },
  );

  it('a flag or a name as its option is refused with a value of another type', () => {
    const checked = POSTURE_FIELDS.filter((field) => field.option.kind === 'flag' || field.option.kind === 'name');
    expect(checked.map((field) => field.option.name)).toEqual([
      'untrusted',
      'privileged',
      'policy',
      'compensatedBy',
      'remote',
      'renameUnsafeProperties',
    ]);
    for (const { option } of checked) {
      const error = caught(() => define({ [option.name]: option.kind === 'flag' ? 'yes' : '' }), ToolDeclarationError);
      expect(error).toMatchObject({ code: 'invalid_option', path: option.name });
    }
  });

  it('a server tool records the fields the table marks for it, and only those', () => {
    const search = serverTool({ type: 'web_search_20250305', name: 'web_search' }, { untrusted: true });
    const marked = POSTURE_FIELDS.filter((field) => 'serverTool' in field).map((field) => field.name);
    const postureOf = (described: object) => Object.keys(described).filter((key) => !HEADER_OWN.includes(key));
    expect(postureOf(describeTools([search.definition()], [search])[0]!)).toEqual(marked);
    // Whatever else the posture behind it holds.
    expect(postureOf(describeTool(search.definition(), everything()))).toEqual(marked);
  });

  it('no place knows a posture field the table does not', () => {
    // A defined tool: what it holds besides its own facts is the table's fields.
    const held = Object.keys(everything()).filter((key) => !TOOL_OWN.includes(key));
    expect(held.sort()).toEqual([...names].sort());
    // The header: its fields besides what the model was shown are the recorded ones, in the table's order.
    const headerKeys = (planOf(recordedTool) as ObjectPlan).fields.map((field) => field.key);
    expect(headerKeys.filter((key) => !HEADER_OWN.includes(key))).toEqual(recorded.map((field) => field.name));
    // The guard's facts.
    const facts = Object.keys(toolFacts(everything(), undefined));
    expect(facts).toEqual(POSTURE_FIELDS.filter((field) => 'guard' in field).map((field) => field.name));
  });

  it('docs/trajectory-format.md names every recorded field, and the replay section lists those compared', () => {
    const docs = readFileSync('docs/trajectory-format.md', 'utf8');
    const header = docs.split('\n').find((line) => line.startsWith('| `tools` |'))!;
    for (const field of recorded) expect(header, field.name).toMatch(new RegExp(`\`${field.name}[\`:]`));
    const compared = /\*\*The safety posture\*\* \(`posture`: ([^)]*)\)/.exec(docs)![1]!;
    // Each field in backticks, but `path`: where inside a field (which annotation) a change is.
    const listed = [...compared.matchAll(/`(\w+)`/g)].map((match) => match[1]).filter((name) => name !== 'path');
    expect(listed).toEqual(recorded.map((field) => field.name));
  });
});
