import { rules, type GuardState } from 'legate';
// Not public, so from the source (the build bundles them out of reach): the guard's pure steps.
import { decideBatch } from '../src/guard/pipeline.js';
import { initialGuardState } from '../src/guard/guardState.js';
import { compileRules, type ToolFacts } from '../src/guard/guardContext.js';
import { applyOutcomes } from '../src/guard/applyOutcomes.js';
import { measureEach, MICROSECONDS, report } from './harness.js';
import { placeOrder, validOrder } from './placeOrder.js';

/** A support desk's worth of tools and rules: what the guard checks on every call. */
const facts = new Map<string, ToolFacts>([
  ['fetch_page', { untrusted: true, privileged: false, policy: undefined }],
  ['verify_identity', { untrusted: false, privileged: false, policy: undefined }],
  ['refund_payment', { untrusted: false, privileged: true, policy: 'payments' }],
  ['send_email', { untrusted: false, privileged: false, policy: undefined }],
  ['close_ticket', { untrusted: false, privileged: false, policy: undefined }],
]);
const compiled = compileRules([
  rules.require('refund_payment', 'verify_identity'),
  rules.terminal('close_ticket'),
  rules.limit('send_email', 3),
]);
const visible = [...facts.keys()];
const state: GuardState = { ...initialGuardState(), successes: { verify_identity: 1 }, attempts: { send_email: 1 } };
const call = [{ id: 'toolu_1', name: 'refund_payment' }];

export async function benchGuard(): Promise<void> {
  if (decideBatch(call, { state, rules: compiled, tools: facts, visible })[0] !== undefined)
    throw new Error('the benchmarked call must be allowed');
  const [guard, binder] = await measureEach(
    [
      {
        name: 'guard: decide + update state',
        operation: () => {
          const decision = decideBatch(call, { state, rules: compiled, tools: facts, visible });
          return (
            applyOutcomes(
              state,
              [{ id: 'toolu_1', name: 'refund_payment', allowed: decision[0] === undefined, succeeded: true }],
              2,
              facts,
              compiled,
            ) !== state
          );
        },
      },
      { name: 'binder, 5-argument tool (same run)', operation: () => placeOrder.bind(validOrder).ok },
    ],
    { rounds: 7, roundMs: 300 },
  );
  console.log('Guard pipeline, CPU time per tool call (5 checks, 3 rules, 5 tools; median (min-max) of 7 rounds)');
  report({
    section: 'guard',
    line: "per tool call, beside the binder's cost on one call",
    ours: guard!,
    anchor: binder!,
    scale: { ...MICROSECONDS, digits: 3 },
    goal: { absolute: (median) => median < 2, label: 'goal < 2 µs per call' },
  });
}
