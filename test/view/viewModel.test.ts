import { describe, expect, it } from 'vitest';
import type { RecordedSubRun } from '../../src/index.js';
import type { CallModel } from '../../src/view/trajectoryModel.js';
import { allCalls, viewModel } from '../../src/view/viewModel.js';
import { corpus, shipped } from './shippedCorpus.js';

/** The calls a run holds by the file's own account: each toolUse block and server tool use, sub-runs' too. */
function recordedCalls(run: RecordedSubRun): { id: string; outcome: string | undefined }[] {
  return run.turns.flatMap((turn) =>
    turn.response.content.flatMap((block) => {
      if ('toolUse' in block) {
        const result = turn.results?.find((r) => r.id === block.toolUse.id);
        return [
          { id: block.toolUse.id, outcome: result?.outcome },
          ...(result?.subRun === undefined ? [] : recordedCalls(result.subRun)),
        ];
      }
      const other = 'block' in block ? block.block : 'server' in block ? block.server : undefined;
      return other?.type.endsWith('tool_use') ? [{ id: String(other.id), outcome: 'ok' }] : [];
    }),
  );
}

const calls = (name: string) => viewModel(shipped(name)).runs.flatMap(allCalls);
const call = (name: string, id: string): CallModel => {
  const found = calls(name).find((c) => c.id === id);
  if (found === undefined) throw new Error(`${name} has no call ${id}`);
  return found;
};

describe('the view model of each shipped trajectory', () => {
  it.each(corpus)('$file: every call, its outcome and the counts the index shows', ({ trajectory }) => {
    const model = viewModel(trajectory);
    const recorded = recordedCalls(trajectory);
    const shown = model.runs.flatMap(allCalls);
    expect(shown.map((c) => c.id)).toEqual(recorded.map((c) => c.id));
    expect(shown.map((c) => c.outcome)).toEqual(recorded.map((c) => c.outcome ?? 'incomplete'));
    expect(model.toolCalls).toBe(recorded.length);
    expect(model.blocked).toBe(recorded.filter((c) => c.outcome === 'blocked').length);
    expect(model.tainted).toBe(trajectory.summary.tainted === true);
    expect(model.runs[0]!.turns).toHaveLength(trajectory.turns.length);
  });

  it.each(corpus)('$file: each call blocked by taint links to an earlier call of its source', ({ trajectory }) => {
    const shown = viewModel(trajectory).runs.flatMap(allCalls);
    for (const blocked of shown.filter((c) => c.rule === 'taint')) {
      expect(blocked.taintedBy, `${blocked.id} names no source call`).toBeDefined();
      expect(blocked.taintedBy!.tool).toBe(blocked.source);
      expect(blocked.taintedBy!.taints).toBe(true);
      expect(shown.indexOf(blocked.taintedBy!)).toBeLessThan(shown.indexOf(blocked));
    }
    // Only a tainted run has a taint source, and a tainted run's own calls hold it.
    const sources = viewModel(trajectory).runs[0]!.turns.flatMap((t) =>
      t.parts.flatMap((p) => (p.kind === 'call' && p.call.taints ? [p.call] : [])),
    );
    if (trajectory.summary.tainted !== true) expect(sources).toEqual([]);
    else expect(sources.map((c) => c.tool)).toContain(trajectory.summary.taintSource);
  });

  it('zero-trust: the page fetch taints, the payment is blocked by it', () => {
    expect(call('zero-trust', 'toolu_s1_1')).toMatchObject({ tool: 'fetch_page', taints: true, outcome: 'ok' });
    const payment = call('zero-trust', 'toolu_s2_1');
    expect(payment).toMatchObject({ outcome: 'blocked', rule: 'taint', source: 'fetch_page' });
    expect(payment.taintedBy).toMatchObject({ id: 'toolu_s1_1', turn: 1 });
  });

  it("web-search-taint: the API's web search is a call of its own, and the source of the taint", () => {
    const all = calls('web-search-taint');
    const search = all.find((c) => c.server)!;
    expect(search).toMatchObject({
      tool: 'web_search',
      outcome: 'ok',
      taints: true,
      input: { query: expect.any(String) },
    });
    // What came back, as a reader wants it: each result's title and address, not the encrypted content.
    expect(search.output).toContain(
      'San Francisco, CA Weather Forecast | AccuWeather (6 hours ago)\n' +
        '  https://www.accuweather.com/en/us/san-francisco/94103/weather-forecast/347629',
    );
    expect(search.output).not.toContain('encrypted_content');
    expect(all.find((c) => c.id === 'toolu_s1_1')!.taintedBy).toBe(search);
  });

  it('handoff-to-billing: two lanes, the change of lane marked with the handoff', () => {
    const run = viewModel(shipped('handoff-to-billing')).runs[0]!;
    expect(run.lanes).toEqual(['triage', 'billing']);
    expect(run.turns.map((t) => t.lane)).toEqual(['triage', 'billing', 'billing', 'billing']);
    expect(run.turns[1]!.handoff).toEqual({ from: 'triage', to: 'billing', reason: 'a refund for order A-1001' });
    expect(run.turns.filter((t) => t.handoff !== undefined)).toHaveLength(1);
  });

  it('researcher-taints-caller: the sub-agent run is inside its call, in its own lane', () => {
    const ask = calls('researcher-taints-caller').find((c) => c.subRun !== undefined)!;
    expect(ask.subRun!.agent).toBe('researcher');
    expect(ask.subRun!.turns.every((t) => t.lane === 'researcher')).toBe(true);
    expect(ask.taints).toBe(true);
  });

  it('approvals: the decisions a person made, with the reason', () => {
    expect(calls('approval-denied').find((c) => c.approval !== undefined)!.approval).toEqual({
      approve: false,
      reason: 'Globex is not an approved supplier.',
    });
    expect(calls('approval-granted').find((c) => c.approval !== undefined)!.approval).toMatchObject({ approve: true });
  });
});

describe('a call cut off by max_tokens', () => {
  it('shows the JSON of its input as far as it arrived', () => {
    const trajectory = structuredClone(shipped('zero-trust'));
    const turn = trajectory.turns[1]!;
    turn.response.stopReason = 'max_tokens';
    turn.response.incompleteToolUse = { index: 1, partialJson: '{"amount": 90' };
    turn.results = [{ id: 'toolu_s2_1', tool: 'send_payment', outcome: 'incomplete', content: 'cut off' }];
    const cut = viewModel(trajectory)
      .runs.flatMap(allCalls)
      .find((c) => c.id === 'toolu_s2_1')!;
    expect(cut).toMatchObject({ outcome: 'incomplete', partialInput: '{"amount": 90' });
  });
});
