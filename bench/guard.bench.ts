import { rules, type GuardState } from 'legate';
import type { ToolFacts } from '../src/guard/guardContext.js';
import { builtModule } from './builtModule.js';
import { measure } from './harness.js';
import { placeOrder, validOrder } from './placeOrder.js';

// Not public: the guard's own steps, as built.
const { decideBatch } = await builtModule<typeof import('../src/guard/pipeline.js')>('src/guard/pipeline.js');
const { initialGuardState } = await builtModule<typeof import('../src/guard/guardState.js')>('src/guard/guardState.js');
const { compileRules } = await builtModule<typeof import('../src/guard/guardContext.js')>('src/guard/guardContext.js');
const { applyOutcomes } =
  await builtModule<typeof import('../src/guard/applyOutcomes.js')>('src/guard/applyOutcomes.js');

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

export function benchGuard(): void {
  if (decideBatch(call, { state, rules: compiled, tools: facts, visible })[0] !== undefined)
    throw new Error('the benchmarked call must be allowed');
  const guard = measure('guard: decide + update state', () => {
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
  });
  const binder = measure('binder, 5-argument tool (same run)', () => placeOrder.bind(validOrder).ok);
  const micro = (opsPerSecond: number) => (1e6 / opsPerSecond).toFixed(3);
  console.log('Guard pipeline, per tool call (5 checks, 3 rules, 5 tools)');
  console.log(`  ${guard.name.padEnd(34)} ${micro(guard.opsPerSecond).padStart(8)} µs/call`);
  console.log(`  ${binder.name.padEnd(34)} ${micro(binder.opsPerSecond).padStart(8)} µs/call`);
  console.log(
    `  ratio ${(binder.opsPerSecond / guard.opsPerSecond).toFixed(2)}x the binder's cost  (target < 2 µs: ` +
      `${1e6 / guard.opsPerSecond < 2 ? 'met' : 'NOT met'})`,
  );
}
