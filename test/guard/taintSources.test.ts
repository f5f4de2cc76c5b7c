import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Agent, ScriptedTransport, defineTool, reply, type GuardState, type Message } from '../../src/index.js';
import { copyGuardState, guardStateProblem, initialGuardState } from '../../src/guard/guardState.js';
import { guardStateOfHistory, mergeGuardStates, type HistoryTool } from '../../src/guard/historyGuardState.js';

/** Every source of untrusted content is kept, in order, not only the first (`taint`). */

const tools: Record<string, HistoryTool> = {
  fetch_page: { untrusted: true, terminal: false },
  read_mail: { untrusted: true, terminal: false },
  lookup: { untrusted: false, terminal: false },
};
const toolOf = (name: string) => (Object.hasOwn(tools, name) ? tools[name] : undefined);
const use = (id: string, name: string) => ({ type: 'tool_use', id, name, input: {} });
const result = (id: string, extra: Record<string, unknown> = {}) => ({
  type: 'tool_result',
  tool_use_id: id,
  content: 'x',
  ...extra,
});

describe('taint sources', () => {
  it('a run lists every untrusted call whose output entered, in order, across turns; taint is the first', async () => {
    const untrusted = (name: string) =>
      defineTool({
        name,
        description: 'd',
        input: { type: 'object', properties: {} },
        untrusted: true,
        run: () => 'text',
      });
    const agent = new Agent({
      name: 'a',
      model: 'm',
      tools: [untrusted('fetch_page'), untrusted('read_mail')],
      transport: new ScriptedTransport([
        reply.toolUses([
          { name: 'fetch_page', input: {} },
          { name: 'read_mail', input: {} },
        ]),
        reply.toolUse('fetch_page', {}),
        reply.text('done'),
      ]),
    });
    const { guard } = await agent.run('Read.');
    expect(guard.taint).toEqual({ source: 'fetch_page', id: 'toolu_s1_1' });
    expect(guard.taintSources).toEqual([
      { source: 'fetch_page', id: 'toolu_s1_1' },
      { source: 'read_mail', id: 'toolu_s1_2' },
      { source: 'fetch_page', id: 'toolu_s2_1' },
    ]);
  });

  it('the history walk lists every source: untrusted results and errors, unattributed results', () => {
    const state = guardStateOfHistory(
      [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [use('a', 'lookup'), use('b', 'fetch_page'), use('c', 'read_mail')] },
        { role: 'user', content: [result('a'), result('b'), result('c', { is_error: true })] },
        { role: 'assistant', content: [use('d', 'nobody_knows')] },
        { role: 'user', content: [result('d')] },
      ] as Message[],
      toolOf,
    );
    expect(state.taintSources).toEqual([
      { source: 'fetch_page', id: 'b' },
      { source: 'read_mail', id: 'c' },
      { source: 'unattributed tool result', id: 'd' },
    ]);
    expect(state.taint).toEqual({ source: 'fetch_page', id: 'b' });
  });

  it('a merge keeps the given state’s sources first, then the history’s others, each once', () => {
    const fromHistory: GuardState = {
      ...initialGuardState(),
      taint: { source: 'read_mail', id: 'm1' },
      taintSources: [
        { source: 'read_mail', id: 'm1' },
        { source: 'fetch_page', id: 'f2' },
      ],
    };
    const given: GuardState = {
      ...initialGuardState(),
      taint: { source: 'fetch_page', id: 'f0' },
      taintSources: [
        { source: 'fetch_page', id: 'f0' },
        { source: 'read_mail', id: 'm1' },
      ],
    };
    const merged = mergeGuardStates(fromHistory, given);
    expect(merged.taint).toEqual({ source: 'fetch_page', id: 'f0' });
    expect(merged.taintSources).toEqual([
      { source: 'fetch_page', id: 'f0' },
      { source: 'read_mail', id: 'm1' },
      { source: 'fetch_page', id: 'f2' },
    ]);
    // A state from an older result, without the list, contributes its taint.
    const older = { ...initialGuardState(), taint: { source: 'old', id: 'o1' } } as GuardState;
    delete older.taintSources;
    expect(mergeGuardStates(fromHistory, older).taintSources!.map((s) => s.id)).toEqual(['o1', 'm1', 'f2']);
  });

  it('guardStateProblem accepts a state without the list (an older result) and refuses a malformed one', () => {
    const older = { taint: { source: 's', id: 'i' }, successes: {}, attempts: {}, terminatedBy: null };
    expect(guardStateProblem(older)).toBeUndefined();
    expect(copyGuardState(older as GuardState).taintSources).toEqual([{ source: 's', id: 'i' }]);
    expect(guardStateProblem({ ...older, taintSources: 'fetch_page' })).toMatch(/^'taintSources' must be a list/);
    expect(guardStateProblem({ ...older, taintSources: [{ source: 's' }] })).toMatch(/^'taintSources\[0\]' must be/);
    expect(guardStateProblem({ ...older, taintSources: [] })).toMatch(/must start with 'taint'/);
    expect(guardStateProblem({ ...older, taintSources: [{ source: 'x', id: 'i' }] })).toMatch(
      /must start with 'taint'/,
    );
    expect(guardStateProblem({ ...older, taint: null, taintSources: [{ source: 's', id: 'i' }] })).toMatch(
      /must start with 'taint'/,
    );
  });

  it('a run continuing a history starts from every source it holds, whatever the sources', () => {
    const name = fc.constantFrom('fetch_page', 'read_mail', 'lookup', 'nobody_knows');
    fc.assert(
      fc.property(fc.array(name, { maxLength: 6 }), (names) => {
        const ids = names.map((_, i) => `t${i}`);
        const messages = [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: names.map((n, i) => use(ids[i]!, n)) },
          { role: 'user', content: ids.map((id) => result(id)) },
        ] as Message[];
        const state = guardStateOfHistory(names.length === 0 ? messages.slice(0, 1) : messages, toolOf);
        const expected = names.flatMap((n, i) =>
          n === 'lookup' ? [] : [{ source: n === 'nobody_knows' ? 'unattributed tool result' : n, id: ids[i]! }],
        );
        expect(state.taintSources).toEqual(expected);
        expect(state.taint).toEqual(expected[0] ?? null);
        expect(guardStateProblem(JSON.parse(JSON.stringify(state)))).toBeUndefined();
      }),
    );
  });
});
