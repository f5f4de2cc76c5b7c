import { isAttempt } from './attempt.js';
import { authorizationCheck } from './checks/authorization.js';
import { limitCheck } from './checks/limit.js';
import { prerequisiteCheck } from './checks/prerequisite.js';
import { taintCheck } from './checks/taint.js';
import { terminalCheck } from './checks/terminal.js';
import type { Block, Check, Decision, GuardContext, GuardedCall, Held } from './guardContext.js';
import { emptyToolRecord, toolRecordValue } from './toolRecord.js';

/**
 * The checks, in the order they apply. When several rules would refuse a call, the first one
 * here is the one reported.
 */
export const GUARD_ORDER: readonly { rule: Block['rule']; check: Check }[] = [
  { rule: 'terminal', check: terminalCheck },
  { rule: 'authorization', check: authorizationCheck },
  { rule: 'taint', check: taintCheck },
  { rule: 'prerequisite', check: prerequisiteCheck },
  { rule: 'limit', check: limitCheck },
];

/**
 * Decides every call of one response, in block order, before any of them runs: a call is
 * allowed (undefined) or blocked. Earlier calls of the response count towards limits, and a
 * terminal tool among them holds back the calls after it. Where no person can decide (an audit,
 * an MCP session), a call the guard would hold for one is refused: see {@link decideCalls}.
 */
export function decideBatch(
  calls: readonly GuardedCall[],
  context: Omit<GuardContext, 'batch'>,
): (Block | undefined)[] {
  return decide(calls, context, true) as (Block | undefined)[];
}

/**
 * Decides every call of one response as {@link decideBatch} does, and says which calls are held
 * for a person (a tainted run's privileged call under `onTaint: 'approve'`): a held call goes
 * through the later checks (one that refuses wins) and counts as an attempt, as an allowed call does.
 */
export function decideCalls(calls: readonly GuardedCall[], context: Omit<GuardContext, 'batch'>): Decision[] {
  return decide(calls, context, false);
}

/** Both of the above: `refuseHeld` refuses a held call (with the refusal it would be under `block`). */
function decide(calls: readonly GuardedCall[], context: Omit<GuardContext, 'batch'>, refuseHeld: boolean): Decision[] {
  const batch: GuardContext['batch'] = { attempts: emptyToolRecord(), terminalCall: undefined };
  // Built field by field: an object spread here cost more than all five checks together.
  const full: GuardContext = {
    state: context.state,
    rules: context.rules,
    tools: context.tools,
    visible: context.visible,
    batch,
    provenance: context.provenance,
  };
  return calls.map((call) => {
    let held: Held | undefined;
    for (const { check } of GUARD_ORDER) {
      const decision = check(call, full);
      if (decision === undefined) continue;
      if (!('held' in decision)) return decision;
      if (refuseHeld) return decision.block;
      held = decision;
    }
    if (isAttempt({ name: call.name, allowed: true }, context.tools))
      batch.attempts[call.name] = (toolRecordValue(batch.attempts, call.name) ?? 0) + 1;
    if (context.rules.terminal.has(call.name)) batch.terminalCall ??= call.name;
    return held;
  });
}
