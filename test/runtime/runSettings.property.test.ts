import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Agent, ScriptedTransport, defineTool, reply, type AnyTool, type ScriptStep } from '../../src/index.js';

// Over every chain of handoffs (length, each agent's own clock and mode, where the run stops for
// approval, whether resume is given a clock): each tool reads the run's clock, never the clock of
// the agent in charge, and a privileged tool runs only when neither the run nor the agent in
// charge is in shadow mode.

const model = 'claude-haiku-5-5';
const noInput = { type: 'object', properties: {} } as const;
const ENTRY_CLOCK = new Date('2026-01-01T00:00:00Z');
const RESUME_CLOCK = new Date('2027-03-03T03:03:03Z');
const ownClock = (i: number) => new Date(Date.UTC(2030 + i, 0, 1));

interface Reading {
  tool: string;
  time: string;
  resumed: boolean;
}

interface Chain {
  shadow: boolean[];
  /** Which agents' `wire` waits for approval. */
  gated: boolean[];
  resumeClock: boolean;
}

const chains = fc.integer({ min: 1, max: 4 }).chain((n) =>
  fc.record({
    shadow: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
    gated: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
    resumeClock: fc.boolean(),
  }),
);

function build(chain: Chain, readings: Reading[], phase: { resumed: boolean }): Agent {
  const n = chain.shadow.length;
  const stamp = (name: string, privileged: boolean): AnyTool =>
    defineTool({
      name,
      description: 'Reads the clock.',
      input: noInput,
      privileged,
      run: (_args, ctx) => {
        readings.push({ tool: name, time: ctx.now().toISOString(), resumed: phase.resumed });
        return 'ok';
      },
    });
  const script: ScriptStep[] = [];
  for (let i = 0; i < n; i++) {
    script.push(reply.toolUse(`stamp_${i}`, {}), reply.toolUse(`wire_${i}`, {}));
    if (i < n - 1) script.push(reply.toolUse(`handoff_to_a${i + 1}`, {}));
  }
  script.push(reply.text('Done.'));
  let next: Agent | undefined;
  for (let i = n - 1; i >= 0; i--) {
    next = new Agent({
      name: `a${i}`,
      model,
      transport: i === 0 ? new ScriptedTransport(script) : new ScriptedTransport([]),
      clock: i === 0 ? () => new Date(ENTRY_CLOCK) : () => ownClock(i),
      mode: chain.shadow[i] ? 'shadow' : 'live',
      tools: [stamp(`stamp_${i}`, false), stamp(`wire_${i}`, true)],
      approvalRequired: chain.gated[i] ? (tool) => tool.name === `wire_${i}` : undefined,
      ...(next === undefined ? {} : { handoffs: [{ name: `a${i + 1}`, agent: next, description: 'Next.' }] }),
      maxHandoffs: 4,
    });
  }
  return next!;
}

describe('run settings over handoff chains', () => {
  it("each tool reads the run's clock; a privileged tool runs unless the run or its agent is in shadow", async () => {
    await fc.assert(
      fc.asyncProperty(chains, async (chain) => {
        const readings: Reading[] = [];
        const phase = { resumed: false };
        const entry = build(chain, readings, phase);
        let result = await entry.run('go');
        while (result.stopReason === 'suspended') {
          phase.resumed = true;
          const clock = chain.resumeClock ? { clock: () => new Date(RESUME_CLOCK) } : {};
          result = await entry.resume(result.suspension!, { approve: true, ...clock });
        }
        expect(result.stopReason).toBe('end_turn');
        for (const reading of readings) {
          expect(reading.time).toBe((reading.resumed && chain.resumeClock ? RESUME_CLOCK : ENTRY_CLOCK).toISOString());
        }
        const ran = new Set(readings.map((r) => r.tool));
        chain.shadow.forEach((shadow, i) => {
          expect(ran.has(`stamp_${i}`)).toBe(true);
          expect(ran.has(`wire_${i}`)).toBe(!(chain.shadow[0] || shadow));
        });
      }),
      { numRuns: 60 },
    );
  });
});
