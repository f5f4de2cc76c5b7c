import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareTrajectories, loadTrajectory, type DecisionChange, type Trajectory } from '../../src/index.js';
import { withConversations } from '../../src/trajectory/conversationsOf.js';
import { withSamples } from '../../src/trajectory/samplesOf.js';
import type { RecordedOutcome, RecordedTurn } from '../../src/trajectory/types.js';
import { SHIPPED } from '../support/corpusProject.js';

// compareTrajectories: how a file recorded again differs from the old one, column by column (legate compare).

/** A call as a synthetic run makes it: the tool, and the outcome its result records. */
interface Call {
  tool: string;
  outcome: RecordedOutcome;
  rule?: string;
}

const BASE = loadTrajectory('trajectories/tool-loop.yaml');

/**
 * A run of tool-loop.yaml's header that makes these calls, one a turn, then answers `text` and stops for `stop`: the
 * shape the runtime records (each tool_use answered by its result, by id).
 */
function runOf(calls: readonly Call[], stop = 'end_turn', text = 'Done.'): Trajectory {
  const turns: RecordedTurn[] = calls.map((call, i) => ({
    response: {
      id: `msg_${i}`,
      model: BASE.model,
      stopReason: 'tool_use',
      usage: { input_tokens: 10, output_tokens: 5 },
      content: [{ toolUse: { id: `toolu_${i}`, name: call.tool, input: {} } }],
    },
    results: [
      {
        id: `toolu_${i}`,
        tool: call.tool,
        outcome: call.outcome,
        ...(call.rule === undefined ? {} : { rule: call.rule }),
        content: 'answer',
      },
    ],
  }));
  turns.push({
    response: {
      id: 'msg_last',
      model: BASE.model,
      stopReason: 'end_turn',
      usage: { input_tokens: 10, output_tokens: 5 },
      content: [{ text }],
    },
  });
  return {
    ...BASE,
    turns,
    summary: { stopReason: stop, turns: turns.length, usage: { input: 10 * turns.length, output: 5 * turns.length } },
  };
}

const ok = (tool: string): Call => ({ tool, outcome: 'ok' });
const blocked = (tool: string, rule = 'taint'): Call => ({ tool, outcome: 'blocked', rule });

/** The decision changes, as the tool, occurrence and kind. */
const kinds = (changes: DecisionChange[]) => changes.map((c) => [c.tool, c.occurrence, c.kind, c.sample]);

describe('compareTrajectories', () => {
  it('finds every shipped file the same as itself', () => {
    for (const file of SHIPPED) {
      const trajectory = loadTrajectory(file);
      const comparison = compareTrajectories(trajectory, trajectory);
      expect(comparison, file).toMatchObject({ same: true, gated: false, decisions: [] });
      expect(comparison.tokens.before).toEqual(comparison.tokens.after);
      expect(comparison.tools ?? comparison.stopReason ?? comparison.finalText ?? comparison.handoffs).toBeUndefined();
    }
  });

  it('a call now blocked, and one now run: decision changes, which gate', () => {
    const comparison = compareTrajectories(
      runOf([ok('fetch'), blocked('pay'), ok('pay')]),
      runOf([ok('fetch'), ok('pay'), blocked('pay', 'limit')]),
    );
    expect(kinds(comparison.decisions)).toEqual([
      ['pay', 1, 'now run', 1],
      ['pay', 2, 'now blocked', 1],
    ]);
    expect(comparison.decisions[1]).toMatchObject({ before: { decision: 'run' }, after: { rule: 'limit' } });
    expect(comparison.tools).toBeUndefined();
    expect(comparison).toMatchObject({ same: false, gated: true });
  });

  it('an invalid call now run is "now run"; run to planned is "changed"; both gate', () => {
    const comparison = compareTrajectories(
      runOf([{ tool: 'add', outcome: 'invalid' }, ok('refund')]),
      runOf([ok('add'), { tool: 'refund', outcome: 'planned', rule: 'shadow' }]),
    );
    expect(kinds(comparison.decisions)).toEqual([
      ['add', 1, 'now run', 1],
      ['refund', 1, 'changed', 1],
    ]);
    expect(comparison.gated).toBe(true);
  });

  it('another tool called: the tools changed at that call, no decision changed unless the new call is blocked', () => {
    const other = compareTrajectories(runOf([ok('add'), ok('divide')]), runOf([ok('add'), ok('square_root')]));
    expect(other.tools).toEqual({ sample: 1, call: 2, before: 'divide', after: 'square_root' });
    expect(other).toMatchObject({ decisions: [], same: false, gated: false });
    const dropped = compareTrajectories(runOf([ok('add'), ok('divide')]), runOf([ok('add')]));
    expect(dropped.tools).toEqual({ sample: 1, call: 2, before: 'divide' });
    expect(dropped.gated).toBe(false);
    const added = compareTrajectories(runOf([ok('add')]), runOf([ok('add'), blocked('send')]));
    expect(added.tools).toEqual({ sample: 1, call: 2, after: 'send' });
    expect(kinds(added.decisions)).toEqual([['send', 1, 'now blocked', 1]]);
    expect(added.decisions[0]!.before).toBeUndefined();
    expect(added.gated).toBe(true);
  });

  it('a stop reason changed gates; a final text changed does not', () => {
    const stop = compareTrajectories(runOf([ok('a')]), runOf([ok('a')], 'max_tokens'));
    expect(stop).toMatchObject({ stopReason: { sample: 1, before: 'end_turn', after: 'max_tokens' }, gated: true });
    const text = compareTrajectories(runOf([ok('a')], 'end_turn', 'One.'), runOf([ok('a')], 'end_turn', 'Two.'));
    expect(text).toMatchObject({ finalText: { before: 'One.', after: 'Two.' }, same: false, gated: false });
  });

  it('compares the handoffs, the model that answered and the tokens', () => {
    const before = loadTrajectory('trajectories/handoff-to-billing.yaml');
    const after: Trajectory = {
      ...before,
      model: 'claude-next-1',
      summary: { ...before.summary, handoffs: [], usage: { ...before.summary.usage, output: 198 } },
    };
    const comparison = compareTrajectories(before, after);
    expect(comparison.handoffs).toEqual({ sample: 1, before: ['triage → billing'], after: [] });
    expect(comparison.model).toEqual({ before: 'claude-haiku-5-5', after: 'claude-next-1' });
    expect(comparison.tokens).toEqual({ before: { input: 1146, output: 99 }, after: { input: 1146, output: 198 } });
    expect(comparison.gated).toBe(false);
  });

  it("names a sub-agent's calls after the call that ran it, and compares their decisions", () => {
    const before = loadTrajectory('trajectories/researcher-taints-caller.yaml');
    const after = structuredClone(before);
    const subRun = after.turns[0]!.results![0]!.subRun!;
    subRun.turns[0]!.results![0]!.outcome = 'blocked';
    const comparison = compareTrajectories(before, after);
    expect(kinds(comparison.decisions)).toEqual([['ask_researcher › fetch_article', 1, 'now blocked', 1]]);
  });

  it('with samples: pairs them in order, names the pair, and counts how many pass on each side', () => {
    const good = runOf([ok('a')]);
    const bad = runOf([ok('a'), blocked('b')]);
    const comparison = compareTrajectories(withSamples([good, good]), withSamples([good, bad, good]));
    expect(comparison.samples).toEqual({ before: { passed: 2, total: 2 }, after: { passed: 2, total: 3 } });
    expect(kinds(comparison.decisions)).toEqual([['b', 1, 'now blocked', 2]]);
    expect(comparison.tools).toMatchObject({ sample: 2, call: 2 });
    // A sample that stopped short of an answer does not pass either, nor does one with a call blocked.
    const short = compareTrajectories(good, withSamples([runOf([ok('a')], 'max_tokens'), good]));
    expect(short.samples.after).toEqual({ passed: 1, total: 2 });
    expect(short.stopReason).toMatchObject({ sample: 1 });
  });

  it('reads every conversation of a file recorded at the HTTP boundary', () => {
    const a = runOf([ok('a')]);
    const comparison = compareTrajectories(withConversations([a, a]), withConversations([a, runOf([blocked('a')])]));
    expect(kinds(comparison.decisions)).toEqual([['a', 2, 'now blocked', 1]]);
    expect(comparison.samples.after).toEqual({ passed: 0, total: 1 });
  });

  it('agrees with a reference on every pair of random runs: the first tool difference, the decisions, the gate', () => {
    const call = fc.record({
      tool: fc.constantFrom('a', 'b', 'c'),
      outcome: fc.constantFrom<RecordedOutcome>('ok', 'error', 'blocked', 'invalid', 'planned', 'suspended'),
    });
    const run = fc.record({ calls: fc.array(call, { maxLength: 8 }), stop: fc.constantFrom('end_turn', 'max_tokens') });
    fc.assert(
      fc.property(run, run, (old, now) => {
        const comparison = compareTrajectories(runOf(old.calls, old.stop), runOf(now.calls, now.stop));
        const expected = referenceDecisions(old.calls, now.calls);
        expect(kinds(comparison.decisions)).toEqual(expected);
        const names = (calls: Call[]) => calls.map((c) => c.tool);
        const at = names(old.calls).findIndex((tool, i) => tool !== names(now.calls)[i]);
        const first =
          at !== -1 ? at : old.calls.length !== now.calls.length ? Math.min(old.calls.length, now.calls.length) : -1;
        expect(comparison.tools?.call).toBe(first === -1 ? undefined : first + 1);
        expect(comparison.gated).toBe(expected.length > 0 || old.stop !== now.stop);
        expect(compareTrajectories(runOf(old.calls, old.stop), runOf(old.calls, old.stop)).same).toBe(true);
      }),
    );
  });
});

/**
 * The decision changes by their definition, computed another way: for each call of the new run, the call of the
 * old run with the same tool and the same number of earlier calls of that tool; reported where their decisions
 * (ok and error are both `run`) differ, or where the new call is blocked and the old run has no such call.
 */
function referenceDecisions(old: Call[], now: Call[]): unknown[] {
  const decision = (call: Call) => (call.outcome === 'ok' || call.outcome === 'error' ? 'run' : call.outcome);
  return now.flatMap((call, j) => {
    const occurrence = now.slice(0, j + 1).filter((c) => c.tool === call.tool).length;
    const was = old.filter((c) => c.tool === call.tool)[occurrence - 1];
    if (was === undefined ? call.outcome !== 'blocked' : decision(was) === decision(call)) return [];
    const kind = call.outcome === 'blocked' ? 'now blocked' : decision(call) === 'run' ? 'now run' : 'changed';
    return [[call.tool, occurrence, kind, 1]];
  });
}
