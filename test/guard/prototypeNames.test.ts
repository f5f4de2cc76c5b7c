import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { Agent, ScriptedTransport, defineTool, reply, rules, type GuardState } from '../../src/index.js';
import { applyOutcomes } from '../../src/guard/applyOutcomes.js';
import { compileRules, type ToolFacts } from '../../src/guard/guardContext.js';
import { initialGuardState } from '../../src/guard/guardState.js';
import { decideBatch } from '../../src/guard/pipeline.js';
import { TOOL_NAME_PATTERN } from '../../src/tools/toolName.js';

/**
 * Every property name Object.prototype has that is also a valid tool name: `toString`, `constructor`, `__proto__`...
 */
const prototypeNames = Object.getOwnPropertyNames(Object.prototype).filter((name) => TOOL_NAME_PATTERN.test(name));

const noInput = { type: 'object', properties: {} } as const;

describe('guard state and tool names that Object.prototype also has', () => {
  it('covers the names that matter', () => {
    expect(prototypeNames).toEqual(
      expect.arrayContaining(['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf']),
    );
  });

  it.each(['toString', 'constructor', '__proto__'])(
    'a prerequisite named %s is not met before it succeeded',
    async (prerequisite) => {
      const guarded = vi.fn(() => 'done');
      const tools = [
        defineTool({ name: prerequisite, description: 'P.', input: noInput, run: () => 'ok' }),
        defineTool({ name: 'refund_payment', description: 'R.', input: noInput, run: guarded }),
      ];
      const transport = new ScriptedTransport([reply.toolUse('refund_payment', {}), reply.text('Done.')]);
      const result = await new Agent({
        name: 'a',
        model: 'm',
        transport,
        tools,
        rules: [rules.require('refund_payment', prerequisite)],
      }).run('go');
      expect(guarded).not.toHaveBeenCalled();
      expect(result.toolCalls[0]).toMatchObject({ outcome: 'blocked', rule: 'prerequisite' });
    },
  );

  it('a limit on a tool named constructor counts its calls', async () => {
    const run = vi.fn(() => 'ok');
    const tool = defineTool({ name: 'constructor', description: 'C.', input: noInput, run });
    const transport = new ScriptedTransport([
      reply.toolUse('constructor', {}),
      reply.toolUse('constructor', {}),
      reply.text('Done.'),
    ]);
    const result = await new Agent({
      name: 'a',
      model: 'm',
      transport,
      tools: [tool],
      rules: [rules.limit('constructor', 1)],
    }).run('go');
    expect(run).toHaveBeenCalledTimes(1);
    expect(result.toolCalls.map((c) => c.rule ?? c.outcome)).toEqual(['ok', 'limit']);
  });

  it('keeps a success of __proto__ through JSON, as a suspension stores it', () => {
    const facts = new Map<string, ToolFacts>([
      ['__proto__', { untrusted: false, privileged: false, policy: undefined }],
    ]);
    const state = applyOutcomes(
      initialGuardState(),
      [{ id: 'x', name: '__proto__', allowed: true, succeeded: true }],
      1,
      facts,
      compileRules([]),
    );
    const stored = JSON.parse(JSON.stringify(state)) as GuardState;
    expect(Object.keys(stored.successes)).toEqual(['__proto__']);
    expect(Object.keys(stored.attempts)).toEqual(['__proto__']);
    const next = applyOutcomes(stored, [], 2, facts, compileRules([]));
    expect(Object.keys(next.successes)).toEqual(['__proto__']);
    expect(Object.keys(next.attempts)).toEqual(['__proto__']);
  });

  it('decides alike for any tool names, prototype names included, whether or not the state went through JSON', () => {
    const name = fc.oneof(fc.constantFrom(...prototypeNames), fc.stringMatching(/^[a-z][a-z_]{0,8}$/));
    const scenario = fc.uniqueArray(name, { minLength: 2, maxLength: 4 }).chain((names) => {
      const pick = fc.constantFrom(...names);
      return fc.record({
        names: fc.constant(names),
        requires: fc.array(
          fc.tuple(pick, pick).filter(([a, b]) => a !== b),
          { maxLength: 3 },
        ),
        limits: fc.array(fc.tuple(pick, fc.integer({ min: 1, max: 3 })), { maxLength: 3 }),
        batches: fc.array(fc.array(fc.record({ name: pick, succeeds: fc.boolean() }), { minLength: 1, maxLength: 3 }), {
          minLength: 1,
          maxLength: 6,
        }),
      });
    });
    fc.assert(
      fc.property(scenario, (s) => {
        const facts = new Map<string, ToolFacts>(
          s.names.map((n) => [n, { untrusted: false, privileged: false, policy: undefined }]),
        );
        const compiled = compileRules([
          ...s.requires.map(([t, p]) => rules.require(t, p)),
          ...s.limits.map(([t, m]) => rules.limit(t, m)),
        ]);
        // The reference: what the documented rules say, kept in Maps.
        const succeeded = new Set<string>();
        const attempts = new Map<string, number>();
        let plain = initialGuardState();
        let viaJson = initialGuardState();
        s.batches.forEach((batch, b) => {
          const calls = batch.map((c, i) => ({ id: `c${b}_${i}`, name: c.name }));
          const decided = decideBatch(calls, { state: plain, rules: compiled, tools: facts, visible: s.names });
          const decidedViaJson = decideBatch(calls, {
            state: viaJson,
            rules: compiled,
            tools: facts,
            visible: s.names,
          });
          expect(decidedViaJson).toEqual(decided);
          const inBatch = new Map<string, number>();
          const expected = calls.map((call) => {
            if (s.requires.some(([t, p]) => t === call.name && !succeeded.has(p))) return 'prerequisite';
            const max = Math.min(...s.limits.filter(([t]) => t === call.name).map(([, m]) => m));
            const used = (attempts.get(call.name) ?? 0) + (inBatch.get(call.name) ?? 0);
            if (used >= max) return 'limit';
            inBatch.set(call.name, (inBatch.get(call.name) ?? 0) + 1);
            return 'allowed';
          });
          expect(decided.map((d) => d?.rule ?? 'allowed')).toEqual(expected);
          const outcomes = calls.map((call, i) => ({
            ...call,
            allowed: decided[i] === undefined,
            succeeded: decided[i] === undefined && batch[i]!.succeeds,
          }));
          for (const o of outcomes) {
            if (o.allowed) attempts.set(o.name, (attempts.get(o.name) ?? 0) + 1);
            if (o.succeeded) succeeded.add(o.name);
          }
          plain = applyOutcomes(plain, outcomes, b + 1, facts, compiled);
          viaJson = JSON.parse(JSON.stringify(applyOutcomes(viaJson, outcomes, b + 1, facts, compiled))) as GuardState;
        });
        expect(new Set(Object.keys(plain.successes))).toEqual(succeeded);
        expect(Object.fromEntries(Object.entries(plain.attempts))).toEqual(Object.fromEntries(attempts));
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});
