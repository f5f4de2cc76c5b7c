import { describe, expect, it } from 'vitest';
import { runLegateBareLoop, runLegateLoop } from '../../bench/loop/legateLoop.js';
import { runOpenAiAgentsLoop } from '../../bench/loop/openAiAgentsLoop.js';
import { runVercelLoop } from '../../bench/loop/vercelLoop.js';
import { bodyRuns, EXPECTED_CALLS, FINAL_TEXT, SCRIPT, TURNS } from '../../bench/loop/scenario.js';

/**
 * The run-loop bench compares three frameworks on one scenario; the comparison is only honest if each
 * does the same work: the same tool calls, with the same inputs, answered with the same outputs, over
 * the same number of model turns, ending on the same answer.
 */
describe('run-loop bench scenario', () => {
  const frameworks = {
    legate: runLegateLoop,
    'legate, responses served bare': runLegateBareLoop,
    'Vercel AI SDK': runVercelLoop,
    'OpenAI Agents JS': runOpenAiAgentsLoop,
  };

  for (const [name, runLoop] of Object.entries(frameworks)) {
    it(`${name} makes the scenario's tool calls, in order, and ends on its answer`, async () => {
      const run = await runLoop();
      expect(run.calls).toEqual(EXPECTED_CALLS);
      expect(run.text).toBe(FINAL_TEXT);
      expect(run.turns).toBe(TURNS);
    });
  }

  it('runs a ten-turn loop over two or three tools, each called more than once', () => {
    expect(TURNS).toBe(10);
    expect(EXPECTED_CALLS).toHaveLength(TURNS - 1);
    const tools = new Set(EXPECTED_CALLS.map((call) => call.name));
    expect(tools.size).toBeGreaterThanOrEqual(2);
    expect(tools.size).toBeLessThanOrEqual(3);
  });

  it('gives each run its own scripted model: two runs in a row make the same calls', async () => {
    for (const runLoop of Object.values(frameworks)) {
      const first = await runLoop();
      const second = await runLoop();
      expect(second.calls).toEqual(first.calls);
    }
  });

  it('validates each input with the schema in every framework: an out-of-range argument reaches no body', async () => {
    const script = SCRIPT.map((turn, i) =>
      i === 1 ? { ...turn, call: { ...turn.call, input: { ...turn.call.input, limit: 500 } } } : turn,
    );
    for (const runLoop of Object.values(frameworks)) {
      const before = bodyRuns.count;
      const run = await runLoop(script);
      expect(bodyRuns.count - before).toBe(TURNS - 2);
      expect(run.turns).toBe(TURNS);
      expect(run.text).toBe(FINAL_TEXT);
    }
  });
});
