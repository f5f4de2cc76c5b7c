import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Agent, ScriptedTransport, defineTool, policies, reply, rules, type Rule } from '../../src/index.js';

interface ToolSpec {
  name: string;
  untrusted: boolean;
  privileged: boolean;
  policy: string | undefined;
}

interface CallSpec {
  tool: string;
  fails: boolean;
}

const toolSpecs = fc
  .array(
    fc.record({
      untrusted: fc.boolean(),
      privileged: fc.boolean(),
      policy: fc.constantFrom(undefined, 'payments', 'admin'),
    }),
    { minLength: 2, maxLength: 5 },
  )
  .map((specs) => specs.map((spec, i): ToolSpec => ({ name: `tool_${i}`, ...spec })));

const scenario = toolSpecs.chain((tools) => {
  const names = tools.map((t) => t.name);
  const name = fc.constantFrom(...names);
  const rule: fc.Arbitrary<Rule> = fc.oneof(
    fc
      .tuple(name, name)
      .filter(([a, b]) => a !== b)
      .map(([tool, prerequisite]) => rules.require(tool, prerequisite)),
    name.map((tool) => rules.terminal(tool)),
    fc.tuple(name, fc.integer({ min: 1, max: 3 })).map(([tool, max]) => rules.limit(tool, max)),
  );
  const call: fc.Arbitrary<CallSpec> = fc.record({
    tool: fc.oneof({ weight: 9, arbitrary: name }, { weight: 1, arbitrary: fc.constant('no_such_tool') }),
    fails: fc.boolean(),
  });
  return fc.record({
    tools: fc.constant(tools),
    rules: fc.array(rule, { maxLength: 4 }),
    granted: fc.subarray(['payments', 'admin']),
    mode: fc.constantFrom('live' as const, 'shadow' as const),
    batches: fc.array(fc.array(call, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 }),
  });
});

describe('guard properties', () => {
  it('hold for any tool set, rules and sequence of calls, parallel batches and failures included', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const plan = new Map<string, boolean>(); // tool_use id -> does this call fail
        const executed: { tool: string; turn: number; id: string; failed: boolean }[] = [];
        const tools = s.tools.map((spec) =>
          defineTool({
            name: spec.name,
            description: `${spec.name}.`,
            input: { type: 'object', properties: {} },
            untrusted: spec.untrusted,
            privileged: spec.privileged,
            policy: spec.policy,
            run: (_args, ctx) => {
              const turn = Number(/^t(\d+)_/.exec(ctx.toolUseId)![1]);
              const failed = plan.get(ctx.toolUseId) === true;
              executed.push({ tool: spec.name, turn, id: ctx.toolUseId, failed });
              if (failed) throw new Error('planned failure');
              return 'ok';
            },
          }),
        );
        const script = s.batches.map((batch, b) =>
          reply.toolUses(
            batch.map((call, i) => {
              const id = `t${b + 1}_${i}`;
              plan.set(id, call.fails);
              return { name: call.tool, input: {}, id };
            }),
          ),
        );
        const agent = new Agent({
          name: 'prop',
          model: 'm',
          tools,
          rules: s.rules,
          authorizer: policies(...s.granted),
          mode: s.mode,
          transport: new ScriptedTransport([...script, reply.text('done')]),
          maxTurns: s.batches.length + 1,
        });
        const result = await agent.run('go');

        const spec = new Map(s.tools.map((t) => [t.name, t]));
        const visible = (name: string) =>
          spec.get(name)!.policy === undefined || s.granted.includes(spec.get(name)!.policy!);
        const successes = executed.filter((e) => !e.failed);
        const succeededBefore = (tool: string, turn: number) => successes.some((e) => e.tool === tool && e.turn < turn);
        for (const run of executed) {
          const tool = spec.get(run.tool)!;
          // No hidden tool runs.
          expect(visible(run.tool)).toBe(true);
          // No privileged tool runs in shadow mode, nor after an untrusted success in an earlier turn.
          if (tool.privileged) {
            expect(s.mode).toBe('live');
            expect(successes.some((e) => spec.get(e.tool)!.untrusted && e.turn < run.turn)).toBe(false);
          }
          // No guarded tool runs before its prerequisite succeeded in an earlier turn.
          for (const rule of s.rules)
            if (rule.kind === 'require' && rule.tool === run.tool)
              expect(succeededBefore(rule.prerequisite, run.turn)).toBe(true);
          // Nothing runs after a terminal tool succeeded, nor after one earlier in the same response.
          for (const rule of s.rules) {
            if (rule.kind !== 'terminal') continue;
            expect(successes.some((e) => e.tool === rule.tool && e.turn < run.turn)).toBe(false);
            // A terminal call the guard let through earlier in the same response holds this one back.
            const index = Number(run.id.split('_')[1]);
            const earlier = result.toolCalls.filter((c) => c.turn === run.turn && Number(c.id.split('_')[1]) < index);
            expect(earlier.some((c) => c.name === rule.tool && c.outcome !== 'blocked')).toBe(false);
          }
        }
        // No tool runs more often than its limit allows.
        for (const rule of s.rules) {
          if (rule.kind === 'limit')
            expect(executed.filter((e) => e.tool === rule.tool).length).toBeLessThanOrEqual(rule.maxCalls);
        }
        // The result states the same facts: every blocked call is on the result with its rule.
        expect(result.blocked.map((b) => b.id)).toEqual(
          result.toolCalls.filter((c) => c.outcome === 'blocked').map((c) => c.id),
        );
        expect(result.tainted).toBe(successes.some((e) => spec.get(e.tool)!.untrusted));
      }),
      { numRuns: 400 },
    );
  });
});
