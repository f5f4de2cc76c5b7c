// How a response's outcomes change the guard state (src/guard/applyOutcomes.ts): attempts, first successes, the
// call that ended the run, and the taint.
import { describe, expect, it } from 'vitest';
import { rules } from '../../src/index.js';
import { applyOutcomes, type CallOutcome } from '../../src/guard/applyOutcomes.js';
import { compileRules, type ToolFacts } from '../../src/guard/guardContext.js';
import { initialGuardState, type GuardState } from '../../src/guard/guardState.js';

function facts(entries: Record<string, Partial<ToolFacts>>): Map<string, ToolFacts> {
  return new Map(
    Object.entries(entries).map(([name, f]) => [
      name,
      { untrusted: false, privileged: false, policy: undefined, ...f },
    ]),
  );
}

describe('the guard state after a response', () => {
  const tools = facts({ a: {}, b: { untrusted: true }, end: {}, end2: {} });
  const compiled = compileRules([rules.terminal('end'), rules.terminal('end2')]);

  it('counts allowed calls, remembers the first success turn, and ignores what was blocked or failed', () => {
    const state: GuardState = { ...initialGuardState(), successes: { a: 1 }, attempts: { a: 1 } };
    const next = applyOutcomes(
      state,
      [
        { id: '1', name: 'a', allowed: true, succeeded: true },
        { id: '2', name: 'a', allowed: false, succeeded: false },
        { id: '3', name: 'b', allowed: true, succeeded: false },
        { id: '4', name: 'end', allowed: false, succeeded: false },
      ],
      3,
      tools,
      compiled,
    );
    expect(next).toEqual({
      taint: null,
      taintSources: [],
      successes: { a: 1 },
      attempts: { a: 2, b: 1 },
      terminatedBy: null,
    });
    expect(state).toEqual({ ...initialGuardState(), successes: { a: 1 }, attempts: { a: 1 } }); // pure
  });

  it('records a first success with its turn, and keeps the first terminal success', () => {
    const next = applyOutcomes(
      initialGuardState(),
      [
        { id: '1', name: 'end', allowed: true, succeeded: true },
        { id: '2', name: 'end2', allowed: true, succeeded: true },
      ],
      4,
      tools,
      compiled,
    );
    expect(next.successes).toEqual({ end: 4, end2: 4 });
    expect(next.terminatedBy).toEqual({ tool: 'end', id: '1' });
    const later = applyOutcomes(next, [{ id: '3', name: 'end2', allowed: true, succeeded: true }], 5, tools, compiled);
    expect(later.terminatedBy).toEqual({ tool: 'end', id: '1' });
    expect(later.successes).toEqual({ end: 4, end2: 4 });
  });

  it('takes a success of a tool it has no facts on (not one of the agent tools) as trusted', () => {
    const next = applyOutcomes(
      initialGuardState(),
      [{ id: '1', name: 'transfer_to_billing', allowed: true, succeeded: true }],
      1,
      tools,
      compiled,
    );
    expect(next).toEqual({
      taint: null,
      taintSources: [],
      successes: { transfer_to_billing: 1 },
      attempts: {}, // an attempt is a call of a tool the agent in charge has (isAttempt)
      terminatedBy: null,
    });
  });

  it('keeps a taint it already had', () => {
    const state: GuardState = { ...initialGuardState(), taint: { source: 'old', id: '0' } };
    expect(
      applyOutcomes(state, [{ id: '1', name: 'b', allowed: true, succeeded: true }], 2, tools, compiled).taint,
    ).toEqual({ source: 'old', id: '0' });
  });

  it('keeps the first of two untrusted successes in one response', () => {
    const twoUntrusted = facts({ a: { untrusted: true }, b: { untrusted: true } });
    const outcomes: CallOutcome[] = [
      { id: '1', name: 'a', allowed: true, succeeded: true },
      { id: '2', name: 'b', allowed: true, succeeded: true },
    ];
    expect(applyOutcomes(initialGuardState(), outcomes, 1, twoUntrusted, compileRules([])).taint).toEqual({
      source: 'a',
      id: '1',
    });
  });
});
