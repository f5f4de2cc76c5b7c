import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runLegateBareLoop, runLegateLoop } from '../../bench/loop/legateLoop.js';
import { runOpenAiAgentsLoop } from '../../bench/loop/openAiAgentsLoop.js';
import { runVercelLoop } from '../../bench/loop/vercelLoop.js';
import {
  bodyRuns,
  expectedCallsOf,
  FINAL_TEXT,
  TURNS,
  toolDeclarations,
  type ScriptedTurn,
  type ToolName,
} from '../../bench/loop/scenario.js';

/**
 * Beyond the benched script: over any script of up to nine tool turns, the three frameworks do the same
 * work. With valid inputs they make the same calls with the same outputs; with any inputs, exactly the
 * inputs the zod schema accepts reach a tool body, in each of them.
 */
const frameworks = [runLegateLoop, runLegateBareLoop, runVercelLoop, runOpenAiAgentsLoop];

const validInput: Record<ToolName, fc.Arbitrary<Record<string, unknown>>> = {
  find_customer: fc.record({
    email: fc.oneof(fc.constantFrom('ada@example.com', 'grace@example.com'), fc.string({ minLength: 3 })),
  }),
  list_orders: fc.record({
    customerId: fc.constantFrom('cus_1', 'cus_2', 'cus_9'),
    status: fc.constantFrom('open', 'shipped', 'all'),
    limit: fc.integer({ min: 1, max: 50 }),
  }),
  get_order: fc.record({ orderId: fc.constantFrom('ord_101', 'ord_102', 'ord_201', 'ord_202', 'ord_9') }),
};

/** Inputs on both sides of each schema's bounds. */
const anyInput: Record<ToolName, fc.Arbitrary<Record<string, unknown>>> = {
  find_customer: fc.record({ email: fc.string({ maxLength: 6 }) }),
  list_orders: fc.record({
    customerId: fc.constantFrom('cus_1', 'cus_x', 'order'),
    status: fc.constantFrom('open', 'all', 'closed'),
    limit: fc.oneof(fc.integer({ min: -3, max: 60 }), fc.constant(2.5)),
  }),
  get_order: fc.record({ orderId: fc.constantFrom('ord_101', 'ord_x', '') }),
};

const scriptOf = (inputs: Record<ToolName, fc.Arbitrary<Record<string, unknown>>>) =>
  fc
    .array(
      fc.oneof(...(Object.keys(inputs) as ToolName[]).map((name) => inputs[name].map((input) => ({ name, input })))),
      { maxLength: TURNS - 1 },
    )
    .map((calls): ScriptedTurn[] =>
      calls.map((call, i) => ({ text: `Step ${i + 1}.`, call: { id: `toolu_prop_${i + 1}`, ...call } })),
    );

const schemaOf = (name: ToolName) => toolDeclarations.find((declaration) => declaration.name === name)!.input;

describe('run-loop bench scenario, any script', () => {
  it('with valid inputs, every framework makes the script calls, answered by the same bodies', async () => {
    await fc.assert(
      fc.asyncProperty(scriptOf(validInput), async (script) => {
        const expected = expectedCallsOf(script);
        for (const runLoop of frameworks) {
          const run = await runLoop(script);
          expect(run.calls).toEqual(expected);
          expect(run.turns).toBe(script.length + 1);
          expect(run.text).toBe(FINAL_TEXT);
        }
      }),
      { numRuns: 12 },
    );
  });

  it('with any inputs, exactly those the zod schema accepts reach a body, in every framework', async () => {
    await fc.assert(
      fc.asyncProperty(scriptOf(anyInput), async (script) => {
        const valid = script.filter(({ call }) => schemaOf(call.name).safeParse(call.input).success).length;
        for (const runLoop of frameworks) {
          const before = bodyRuns.count;
          const run = await runLoop(script);
          expect(bodyRuns.count - before).toBe(valid);
          expect(run.turns).toBe(script.length + 1);
        }
      }),
      { numRuns: 12 },
    );
  });
});
