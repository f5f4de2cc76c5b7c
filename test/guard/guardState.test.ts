import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { Agent, ScriptedTransport, defineTool, reply, type GuardState } from '../../src/index.js';
import { addTaintSource, copyGuardState, guardStateProblem } from '../../src/guard/guardState.js';

/**
 * The check a guard state handed in with `RunOptions.guard` passes (plain JavaScript
 * callers, states kept as JSON), and the copy the guard then reads.
 */

const valid = (): Record<string, unknown> => ({ taint: null, successes: {}, attempts: {}, terminatedBy: null });
const withKey = (key: string, value: unknown) => ({ ...valid(), [key]: value });

describe('guardStateProblem: the state as a whole', () => {
  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a number', 5],
    ['a string', 'state'],
    ['a list', []],
    ['a list of a state', [valid()]],
  ])('refuses %s as a whole, saying what arrived (and does not throw)', (_, value) => {
    const problem = guardStateProblem(value);
    expect(problem).toMatch(/^it was /);
  });

  it('accepts a state as a run returns it, and the same state through JSON', () => {
    const state: GuardState = {
      taint: { source: 'fetch_page', id: 't1' },
      successes: { verify_identity: 0 },
      attempts: { fetch_page: 2, verify_identity: 1 },
      terminatedBy: { tool: 'close_ticket', id: 'c1' },
    };
    expect(guardStateProblem(state)).toBeUndefined();
    expect(guardStateProblem(JSON.parse(JSON.stringify(state)))).toBeUndefined();
  });
});

describe('guardStateProblem: taint and terminatedBy', () => {
  it.each(['taint', 'terminatedBy'])('%s may be null', (key) => {
    expect(guardStateProblem(withKey(key, null))).toBeUndefined();
  });

  it('accepts a taint { source, id } and an end { tool, id } with strings', () => {
    expect(guardStateProblem(withKey('taint', { source: 's', id: 'i' }))).toBeUndefined();
    expect(guardStateProblem(withKey('terminatedBy', { tool: 't', id: 'i' }))).toBeUndefined();
  });

  const badPairs: [string, string, string, unknown][] = [
    ['taint', 'source', 'id', undefined],
    ['taint', 'source', 'id', 'yes'],
    ['taint', 'source', 'id', true],
    ['taint', 'source', 'id', {}],
    ['taint', 'source', 'id', { id: 'i' }],
    ['taint', 'source', 'id', { source: 's' }],
    ['taint', 'source', 'id', { source: 1, id: 'i' }],
    ['taint', 'source', 'id', { source: 's', id: null }],
    ['taint', 'source', 'id', Object.assign(() => undefined, { source: 's', id: 'i' })],
    ['terminatedBy', 'tool', 'id', undefined],
    ['terminatedBy', 'tool', 'id', 'close_ticket'],
    ['terminatedBy', 'tool', 'id', { id: 'i' }],
    ['terminatedBy', 'tool', 'id', { tool: 't' }],
    ['terminatedBy', 'tool', 'id', { source: 's', id: 'i' }],
    ['terminatedBy', 'tool', 'id', Object.assign(() => undefined, { tool: 't', id: 'i' })],
  ];
  it.each(badPairs)('refuses %s not null nor { %s, %s } with strings: %o', (key, a, b, value) => {
    expect(guardStateProblem(withKey(key, value))).toMatch(
      new RegExp(`^'${key}' must be null or \\{ ${a}, ${b} \\} with strings, but it was `),
    );
  });
});

describe('guardStateProblem: successes and attempts', () => {
  it.each(['successes', 'attempts'])('%s accepts whole counts of at least 0, by tool name', (key) => {
    expect(guardStateProblem(withKey(key, { a: 0, b: 1, c: Number.MAX_SAFE_INTEGER }))).toBeUndefined();
  });

  it.each([
    ['successes', undefined],
    ['successes', null],
    ['successes', 5],
    ['successes', 'verify_identity'],
    ['successes', []],
    ['successes', [0, 1]],
    ['attempts', null],
    ['attempts', 3],
    ['attempts', [2]],
  ])('%s must be an object: %o is refused', (key, value) => {
    expect(guardStateProblem(withKey(key, value))).toMatch(
      new RegExp(`^'${key}' must be an object of counts by tool name, but it was `),
    );
  });

  it.each([
    ['successes', -1],
    ['successes', 1.5],
    ['successes', '3'],
    ['successes', Number.NaN],
    ['attempts', Number.POSITIVE_INFINITY],
    ['attempts', 2 ** 53],
    ['attempts', null],
    ['attempts', -0.5],
  ])('%s refuses a count of %o, naming the tool', (key, count) => {
    const problem = guardStateProblem(withKey(key, { fine: 1, pay: count }));
    expect(problem).toMatch(new RegExp(`^'${key}\\.pay' must be a whole number of at least 0, but it was `));
  });

  it('names the first bad field in order: taint, successes, attempts, terminatedBy', () => {
    const allBad = { taint: 1, successes: 1, attempts: 1, terminatedBy: 1 };
    expect(guardStateProblem(allBad)).toMatch(/^'taint'/);
    expect(guardStateProblem({ ...allBad, taint: null })).toMatch(/^'successes'/);
    expect(guardStateProblem({ ...allBad, taint: null, successes: {} })).toMatch(/^'attempts'/);
    expect(guardStateProblem({ ...allBad, taint: null, successes: {}, attempts: {} })).toMatch(/^'terminatedBy'/);
  });
});

describe('guardStateProblem: what it says about a bad count', () => {
  it.each([
    ['successes', -1, 'the number -1'],
    ['attempts', 1.5, 'the number 1.5'],
    ['attempts', null, 'null'],
  ])('%s: names the tool and quotes the count %o', (key, count, described) => {
    expect(guardStateProblem(withKey(key, { fine: 1, pay: count }))).toBe(
      `'${key}.pay' must be a whole number of at least 0, but it was ${described}`,
    );
  });
});

describe('guardStateProblem: taintSources', () => {
  const taint = { source: 'fetch_page', id: 't1' };
  const tainted = (taintSources: unknown) => ({ ...valid(), taint, taintSources });

  it('accepts the list a run writes: empty when untainted, else starting with the taint', () => {
    expect(guardStateProblem(withKey('taintSources', []))).toBeUndefined();
    expect(guardStateProblem(tainted([taint]))).toBeUndefined();
    expect(guardStateProblem(tainted([taint, { source: 'web_search', id: 'w2' }]))).toBeUndefined();
  });

  it.each([
    ['null', null, 'null'],
    ['a string', 'fetch_page', 'the string "fetch_page"'],
    ['a number', 5, 'the number 5'],
    ['an entry without source', { id: 'w2' }, 'the object {"id":"w2"}'],
    ['an entry without id', { source: 'web' }, 'the object {"source":"web"}'],
    ['an entry with a number id', { source: 'web', id: 2 }, 'the object {"source":"web","id":2}'],
  ])('refuses %s among the sources, naming its place (and does not throw)', (_, entry, described) => {
    expect(guardStateProblem(tainted([taint, entry]))).toBe(
      `'taintSources[1]' must be { source, id } with strings, but it was ${described}`,
    );
  });

  it('refuses a function carrying a source and an id: an entry is plain data', () => {
    const entry = Object.assign(() => undefined, { source: 'web', id: 'w2' });
    expect(guardStateProblem(tainted([taint, entry]))).toMatch(
      /^'taintSources\[1\]' must be \{ source, id \} with strings, but it was the function /,
    );
  });

  it('refuses a list that does not start with the taint, saying both (and does not throw)', () => {
    expect(guardStateProblem(tainted([]))).toBe(
      "'taintSources' must start with 'taint' (the first source), but its first entry was undefined " +
        `and 'taint' was the object {"source":"fetch_page","id":"t1"}`,
    );
    // The same tool, another call: the first source is the call, not only the tool.
    expect(guardStateProblem(tainted([{ source: 'fetch_page', id: 't2' }]))).toMatch(
      /^'taintSources' must start with 'taint'/,
    );
  });
});

describe('addTaintSource', () => {
  it('gives a state from an older result (no list) its list, when the source is its taint already', () => {
    const older: GuardState = {
      taint: { source: 'fetch_page', id: 't1' },
      successes: {},
      attempts: {},
      terminatedBy: null,
    };
    addTaintSource(older, { source: 'fetch_page', id: 't1' });
    expect(older.taint).toStrictEqual({ source: 'fetch_page', id: 't1' });
    expect(older.taintSources).toStrictEqual([{ source: 'fetch_page', id: 't1' }]);
    expect(guardStateProblem(older)).toBeUndefined();
  });

  it('lists a new source after the known ones, and a known call id once, without changing a shared list', () => {
    // Frozen: a change in place would throw. States may share the list.
    const shared = Object.freeze([{ source: 'fetch_page', id: 't1' }]);
    const state: GuardState = {
      taint: shared[0]!,
      taintSources: shared,
      successes: {},
      attempts: {},
      terminatedBy: null,
    };
    addTaintSource(state, { source: 'fetch_page', id: 't1' });
    expect(state.taintSources).toStrictEqual([{ source: 'fetch_page', id: 't1' }]);
    addTaintSource(state, { source: 'web_search', id: 'w2' });
    expect(state.taintSources).toStrictEqual([
      { source: 'fetch_page', id: 't1' },
      { source: 'web_search', id: 'w2' },
    ]);
    expect(shared).toStrictEqual([{ source: 'fetch_page', id: 't1' }]);
    expect(state.taint).toStrictEqual({ source: 'fetch_page', id: 't1' });
  });
});

describe('guardStateProblem over the class of states', () => {
  const name = fc.stringMatching(/^[a-zA-Z0-9_-]{1,12}$/);
  const counts = fc.dictionary(name, fc.nat());
  const pair = (a: string, b: string) => fc.option(fc.record({ [a]: fc.string(), [b]: fc.string() }), { nil: null });
  const state = fc.record({
    taint: pair('source', 'id'),
    successes: counts,
    attempts: counts,
    terminatedBy: pair('tool', 'id'),
  });
  const notACount = fc.oneof(
    fc.integer({ max: -1 }),
    fc.double({ noInteger: true }),
    fc.string(),
    fc.constant(null),
    fc.boolean(),
  );

  it('accepts every state as JSON keeps it, and copies it unchanged', () => {
    fc.assert(
      fc.property(state, (s) => {
        const parsed = JSON.parse(JSON.stringify(s)) as GuardState;
        expect(guardStateProblem(parsed)).toBeUndefined();
        // A state from an older result, without taintSources, is read as holding its taint alone.
        const sources = parsed.taintSources ?? (parsed.taint === null ? [] : [parsed.taint]);
        expect(JSON.parse(JSON.stringify(copyGuardState(parsed)))).toEqual({ ...parsed, taintSources: sources });
      }),
      { numRuns: 100 },
    );
  });

  it('refuses every state with one count that is not a whole number of at least 0', () => {
    fc.assert(
      fc.property(state, fc.constantFrom('successes', 'attempts'), name, notACount, (s, key, tool, bad) => {
        const broken = { ...s, [key]: { ...s[key as 'successes'], [tool]: bad } };
        expect(guardStateProblem(broken)).toMatch(new RegExp(`^'${key}\\.`));
      }),
      { numRuns: 100 },
    );
  });
});

describe('copyGuardState', () => {
  it('keeps the taint and the end, as fresh objects, and counts in prototype-free records', () => {
    const given: GuardState = {
      taint: { source: 'fetch_page', id: 't1' },
      successes: { verify_identity: 0 },
      attempts: { fetch_page: 1, toString: 2 },
      terminatedBy: { tool: 'close_ticket', id: 'c1' },
    };
    const copy = copyGuardState(given);
    expect(copy).toEqual({ ...given, taintSources: [{ source: 'fetch_page', id: 't1' }] });
    expect(copy.taint).not.toBe(given.taint);
    expect(copy.terminatedBy).not.toBe(given.terminatedBy);
    expect(Object.getPrototypeOf(copy.successes)).toBeNull();
    expect(Object.getPrototypeOf(copy.attempts)).toBeNull();
    given.taint!.source = 'changed';
    given.attempts.fetch_page = 9;
    expect(copy.taint).toEqual({ source: 'fetch_page', id: 't1' });
    expect(copy.attempts.fetch_page).toBe(1);
  });

  it('keeps null taint and end null', () => {
    const copy = copyGuardState({ taint: null, successes: {}, attempts: {}, terminatedBy: null });
    expect(copy.taint).toBeNull();
    expect(copy.terminatedBy).toBeNull();
  });
});

describe('a guard state handed in with RunOptions.guard and no history', () => {
  const noInput = { type: 'object', properties: {} } as const;

  it('its taint blocks a privileged tool and stays the source', async () => {
    const pay = vi.fn(() => 'paid');
    const sendPayment = defineTool({
      name: 'send_payment',
      description: 'Pays.',
      input: noInput,
      privileged: true,
      run: pay,
    });
    const agent = new Agent({
      name: 'desk',
      model: 'm',
      tools: [sendPayment],
      transport: new ScriptedTransport([reply.toolUse('send_payment', {}), reply.text('No.')]),
    });
    const guard = JSON.parse(
      JSON.stringify({ taint: { source: 'fetch_page', id: 't1' }, successes: {}, attempts: {}, terminatedBy: null }),
    ) as GuardState;
    const result = await agent.run('Pay.', { guard });
    expect(pay).not.toHaveBeenCalled();
    expect(result.guard.taint).toEqual({ source: 'fetch_page', id: 't1' });
    expect(result.blocked).toMatchObject([{ tool: 'send_payment', rule: 'taint', source: 'fetch_page' }]);
  });

  it('its end stops every further call', async () => {
    const refund = vi.fn(() => 'refunded');
    const refundPayment = defineTool({ name: 'refund_payment', description: 'Refunds.', input: noInput, run: refund });
    const agent = new Agent({
      name: 'desk',
      model: 'm',
      tools: [refundPayment],
      transport: new ScriptedTransport([reply.toolUse('refund_payment', {}), reply.text('Done.')]),
    });
    const result = await agent.run('Refund.', {
      guard: { taint: null, successes: {}, attempts: {}, terminatedBy: { tool: 'close_ticket', id: 'c1' } },
    });
    expect(refund).not.toHaveBeenCalled();
    expect(result.guard.terminatedBy).toEqual({ tool: 'close_ticket', id: 'c1' });
    expect(result.blocked).toMatchObject([{ tool: 'refund_payment', rule: 'terminal' }]);
  });
});
