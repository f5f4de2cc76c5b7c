import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  MemoryStateStore,
  ScriptedTransport,
  SuspensionError,
  defineTool,
  reply,
  type AgentResult,
} from '../../../src/index.js';

const scenario = fc.array(fc.boolean(), { minLength: 2, maxLength: 4 }).chain((privileged) =>
  fc.record({
    privileged: fc.constant(privileged),
    batches: fc.array(fc.array(fc.integer({ min: 0, max: privileged.length - 1 }), { minLength: 1, maxLength: 3 }), {
      minLength: 1,
      maxLength: 4,
    }),
    // One choice per pending call, consumed in order: approve or deny, replay the resume, go through a store.
    choices: fc.array(fc.record({ approve: fc.boolean(), retry: fc.boolean(), viaStore: fc.boolean() }), {
      minLength: 12,
      maxLength: 12,
    }),
  }),
);

describe('approval properties', () => {
  it('every approved privileged call runs exactly once and no denied one runs, whatever the interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ privileged, batches, choices }) => {
        const runs = new Map<string, number>();
        const tools = privileged.map((isPrivileged, i) =>
          defineTool({
            name: `tool_${i}`,
            description: `Tool ${i}.`,
            privileged: isPrivileged,
            input: { type: 'object', properties: {} },
            run: (_args, ctx) => {
              runs.set(ctx.toolUseId, (runs.get(ctx.toolUseId) ?? 0) + 1);
              return 'done';
            },
          }),
        );
        const script = batches.map((batch, b) =>
          reply.toolUses(batch.map((tool, i) => ({ name: `tool_${tool}`, input: {}, id: `t${b + 1}_${i}` }))),
        );
        const agent = new Agent({
          name: 'gated',
          model: 'm',
          tools,
          transport: new ScriptedTransport([...script, reply.text('done')]),
          approvalRequired: (tool) => tool.privileged,
          maxTurns: batches.length + 1,
        });
        const store = new MemoryStateStore();
        const approved = new Set<string>();
        const denied = new Set<string>();
        let choice = 0;
        let result: AgentResult = await agent.run('go');
        while (result.stopReason === 'suspended') {
          const suspension = result.suspension!;
          const pick = choices[choice++ % choices.length]!;
          for (const pending of suspension.pending) (pick.approve ? approved : denied).add(pending.id);
          if (pick.viaStore) await store.save(suspension);
          const stored = pick.viaStore ? (await store.load(suspension.runId))! : suspension;
          const options = { approve: pick.approve, ...(pick.viaStore ? { store } : {}) };
          result = await agent.resume(stored, options);
          if (pick.retry) {
            // A second resume of the same suspension is refused, whatever it decides.
            await expect(agent.resume(stored, { ...options, approve: !pick.approve })).rejects.toBeInstanceOf(
              SuspensionError,
            );
          }
        }
        expect(result.stopReason).toBe('end_turn');
        for (const id of approved) expect(runs.get(id)).toBe(1);
        for (const id of denied) expect(runs.get(id)).toBeUndefined();
        for (const [id, count] of runs) expect(count, id).toBe(1);
      }),
      { numRuns: 250 },
    );
  }, 60_000);
});
