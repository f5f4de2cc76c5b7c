// How an audit reads its declarations (src/guard/auditDeclarations.ts): every refusal's words, and
// the facts each tool is given.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/index.js';
import { resolveDeclarations } from '../../src/guard/auditDeclarations.js';
import type { ToolFacts } from '../../src/guard/guardContext.js';
import { caught } from '../support/caught.js';

const KEYS = 'untrusted, trusted, privileged, annotations, recordedAnnotations, rules, sensitive, outsideAuthored';
const notPrivileged = (tool: string) =>
  `'sensitive' names '${tool}', which is not privileged by these declarations: name it in 'privileged' too ` +
  "(or give it MCP hints that make it privileged), or leave it out of 'sensitive'";

/** Each declaration an audit cannot read, and what it says of it (after "The audit's declarations "). */
const REFUSED: [unknown, string][] = [
  [null, `must be an object { ${KEYS} }, but it was null`],
  [[], `must be an object { ${KEYS} }, but it was the array []`],
  ['x', `must be an object { ${KEYS} }, but it was the string "x"`],
  [{ trust: [] }, `have no 'trust' (they take ${KEYS})`],
  [{ trusted: 'a' }, `'trusted' must be a list of tool names, but it was the string "a"`],
  [
    { untrusted: ['a', 'b'], trusted: ['b'] },
    "name 'b' both in 'untrusted' and in 'trusted': a tool is one or the other",
  ],
  [{ untrusted: 'a' }, `'untrusted' must be a list of tool names, but it was the string "a"`],
  [{ privileged: 'b' }, `'privileged' must be a list of tool names, but it was the string "b"`],
  [{ privileged: [1] }, "'privileged' must be a list of tool names, but it was the array [1]"],
  [{ untrusted: ['a', ''] }, `'untrusted' must be a list of tool names, but it was the array ["a",""]`],
  [{ recordedAnnotations: 'yes' }, `'recordedAnnotations' must be true or false, but it was the string "yes"`],
  [{ annotations: null }, "'annotations' must be an object of MCP hints by tool name, but it was null"],
  [{ annotations: [] }, "'annotations' must be an object of MCP hints by tool name, but it was the array []"],
  [{ annotations: 'x' }, `'annotations' must be an object of MCP hints by tool name, but it was the string "x"`],
  [{ annotations: { a: null } }, "'annotations.a' must be an object of MCP hints, but it was null"],
  [{ annotations: { a: [] } }, "'annotations.a' must be an object of MCP hints, but it was the array []"],
  [{ annotations: { a: 1 } }, "'annotations.a' must be an object of MCP hints, but it was the number 1"],
  [
    { annotations: { a: { readOnlyHint: true, readOnly: true } } },
    "'annotations.a' has 'readOnly', not one of readOnlyHint, destructiveHint, openWorldHint",
  ],
  [
    { annotations: { a: { destructiveHint: false, openWorldHint: 'no' } } },
    `'annotations.a.openWorldHint' must be true or false, but it was the string "no"`,
  ],
  [
    { sensitive: null },
    "'sensitive' must be an object of argument paths by tool name, such as { send_money: ['recipient'] }, " +
      'but it was null',
  ],
  [
    { sensitive: [] },
    "'sensitive' must be an object of argument paths by tool name, such as { send_money: ['recipient'] }, " +
      'but it was the array []',
  ],
  [
    { outsideAuthored: 'x' },
    "'outsideAuthored' must be an object of output field paths by tool name, such as " +
      `{ list_transactions: ['[].subject'] }, but it was the string "x"`,
  ],
  [{ sensitive: { pay: [] } }, "'sensitive.pay' must be a non-empty list of paths, but it was the array []"],
  [{ sensitive: { pay: 'to' } }, `'sensitive.pay' must be a non-empty list of paths, but it was the string "to"`],
  [{ outsideAuthored: { read: 'x' } }, `'outsideAuthored.read' must be a list of paths, but it was the string "x"`],
  [{ outsideAuthored: { read: ['ok', 'a..b'] } }, "'outsideAuthored.read[1]': 'a..b' has an empty key (two dots)"],
  [{ sensitive: { pay: ['to'] } }, notPrivileged('pay')],
  [{ privileged: ['pay'], untrusted: ['read'], sensitive: { pay: ['to'], read: ['to'] } }, notPrivileged('read')],
  // MCP hints flag a tool as naming it would; a read-only one is not privileged.
  [{ annotations: { pay: { readOnlyHint: true } }, sensitive: { pay: ['to'] } }, notPrivileged('pay')],
  [{ rules: 'x' }, `'rules' must be a list of rules, but it was the string "x"`],
  [
    { rules: [{ kind: 'limit', tool: 'a', maxCalls: 1 }, { kind: 'limit' }] },
    "'rules[1]' (a limit rule) needs 'tool', the name of one of the agent's tools, but it was undefined",
  ],
  [
    { rules: [{ kind: 'require', tool: 'a' }] },
    "'rules[0]' (a require rule) needs 'prerequisite', the name of one of the agent's tools, but it was undefined",
  ],
  [
    { rules: [{ kind: 'limit', tool: 'a', maxCalls: 0 }] },
    "'rules[0]' (the limit on 'a') must be a whole number of calls of at least 1, but it was the number 0",
  ],
  [
    {
      rules: [
        { kind: 'require', tool: 'a', prerequisite: 'b' },
        { kind: 'terminal', tool: 'a' },
      ],
    },
    "'rules[1]' is a terminal rule, which an audit does not check (a live run stops there, a recording goes on); " +
      'declare prerequisites (rules.require) and limits (rules.limit)',
  ],
];

function facts(f: Partial<ToolFacts> = {}): ToolFacts {
  return { untrusted: false, privileged: false, policy: undefined, ...f };
}

describe('declarations an audit cannot read', () => {
  it.each(REFUSED)('%j is refused, saying what was expected and what arrived', (declarations, problem) => {
    const error = caught(() => resolveDeclarations(declarations, []), UsageError);
    expect(error.code).toBe('invalid_audit_declarations');
    expect(error.message).toBe(`The audit's declarations ${problem}.`);
  });

  it('a sensitive path that starts with no argument the trajectory recorded for its tool is refused', () => {
    const declarations = { privileged: ['pay'], sensitive: { pay: ['recipent'] } };
    const argumentsOf = (tool: string) => (tool === 'pay' ? { recipient: {}, amount: {} } : undefined);
    const error = caught(() => resolveDeclarations(declarations, ['pay'], {}, argumentsOf), UsageError);
    expect(error.message).toBe(
      "The audit's declarations 'sensitive.pay', checked against the arguments this trajectory recorded for 'pay': " +
        "'sensitive[0]' ('recipent') starts with 'recipent', which is not an argument of this tool " +
        "(did you mean 'recipient'?). Its arguments are 'recipient', 'amount'.",
    );
    expect(() => resolveDeclarations(declarations, ['pay'])).not.toThrow();
  });
});

describe('the facts an audit gives each tool', () => {
  it('knows every tool the trajectory offered or the declarations name, offered ones first', () => {
    const { tools, rules } = resolveDeclarations(
      {
        untrusted: ['inbox'],
        privileged: ['pay'],
        annotations: { search: { readOnlyHint: true, openWorldHint: false } },
        rules: [{ kind: 'require', tool: 'refund', prerequisite: 'lookup' }],
        sensitive: { pay: ['to'] },
        outsideAuthored: { inbox: ['[].body'] },
      },
      ['offered'],
    );
    expect([...tools.keys()]).toEqual(['offered', 'inbox', 'pay', 'search', 'refund', 'lookup']);
    expect(tools.get('offered')).toStrictEqual(facts());
    expect(tools.get('inbox')).toStrictEqual(facts({ untrusted: true, outsideAuthored: ['[].body'] }));
    expect(tools.get('pay')).toStrictEqual(facts({ privileged: true, sensitive: ['to'] }));
    // A closed world is no proof its content is trusted: hinted, it is untrusted.
    expect(tools.get('search')).toStrictEqual(facts({ untrusted: true }));
    expect(rules).toEqual([{ kind: 'require', tool: 'refund', prerequisite: 'lookup' }]);
  });

  it('a tool named only in sensitive or outsideAuthored is still known (sensitive refused as unflagged)', () => {
    expect(() => resolveDeclarations({ recordedAnnotations: true, sensitive: { pay: ['to'] } }, [])).toThrow(
      notPrivileged('pay'),
    );
    const { tools } = resolveDeclarations({ recordedAnnotations: true, outsideAuthored: { read: ['x'] } }, []);
    expect(tools.get('read')).toStrictEqual(facts({ outsideAuthored: ['x'] }));
  });

  it('takes outsideAuthored on any tool, an empty list saying no field is written by others', () => {
    const declarations = {
      privileged: ['add_participants'],
      outsideAuthored: { add_participants: [], crm: ['notes'] },
    };
    const { tools } = resolveDeclarations(declarations, []);
    expect(tools.get('add_participants')).toStrictEqual(facts({ privileged: true, outsideAuthored: [] }));
    expect(tools.get('crm')).toStrictEqual(facts({ outsideAuthored: ['notes'] }));
  });

  it("MCP's defaults: hints left out make a tool open-world and not read-only, so untrusted and privileged", () => {
    const annotations = {
      anything: {},
      reader: { readOnlyHint: true },
      wiper: { readOnlyHint: true, destructiveHint: true },
    };
    const { tools } = resolveDeclarations({ annotations }, []);
    expect(tools.get('anything')).toStrictEqual(facts({ untrusted: true, privileged: true }));
    expect(tools.get('reader')).toStrictEqual(facts({ untrusted: true }));
    // A destructive tool is privileged whatever its readOnlyHint says, as mcpTools has it.
    expect(tools.get('wiper')).toStrictEqual(facts({ untrusted: true, privileged: true }));
  });

  it('recorded hints count only when asked for, and a tool given hints here takes those instead', () => {
    const recorded = { fetch: { readOnlyHint: true }, write: { readOnlyHint: false, openWorldHint: false } };
    expect(resolveDeclarations({}, ['fetch', 'write'], recorded).tools.get('write')).toStrictEqual(facts());
    const asked = resolveDeclarations({ recordedAnnotations: true }, ['fetch', 'write'], recorded).tools;
    expect(asked.get('fetch')).toStrictEqual(facts({ untrusted: true }));
    expect(asked.get('write')).toStrictEqual(facts({ untrusted: true, privileged: true }));
    const given = { recordedAnnotations: true, annotations: { write: { readOnlyHint: true, openWorldHint: false } } };
    expect(resolveDeclarations(given, ['fetch', 'write'], recorded).tools.get('write')).toStrictEqual(
      facts({ untrusted: true }),
    );
    const trusted = { ...given, trusted: ['write'] };
    expect(resolveDeclarations(trusted, ['fetch', 'write'], recorded).tools.get('write')).toStrictEqual(facts());
  });

  it('with recorded hints asked for, sensitive is checked against the flags the recorded hints give', () => {
    const recorded = { pay: { readOnlyHint: false, openWorldHint: false } };
    const declarations = { recordedAnnotations: true, sensitive: { pay: ['to'] } };
    expect(resolveDeclarations(declarations, ['pay'], recorded).tools.get('pay')).toStrictEqual(
      facts({ untrusted: true, privileged: true, sensitive: ['to'] }),
    );
  });

  it("a tool named like an object's own property gets nothing from the prototype", () => {
    const { tools } = resolveDeclarations({ annotations: {}, sensitive: {}, outsideAuthored: {} }, [
      'constructor',
      'toString',
      'hasOwnProperty',
    ]);
    for (const name of ['constructor', 'toString', 'hasOwnProperty']) expect(tools.get(name)).toStrictEqual(facts());
  });
});
