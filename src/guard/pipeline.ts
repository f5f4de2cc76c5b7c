import { isAttempt } from './attempt.js';
import { authorizationCheck } from './checks/authorization.js';
import { limitCheck } from './checks/limit.js';
import { prerequisiteCheck } from './checks/prerequisite.js';
import { taintCheck } from './checks/taint.js';
import { terminalCheck } from './checks/terminal.js';
import type { Block, Check, GuardContext, GuardedCall } from './guardContext.js';
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
 * terminal tool among them holds back the calls after it.
 */
export function decideBatch(
  calls: readonly GuardedCall[],
  context: Omit<GuardContext, 'batch'>,
): (Block | undefined)[] {
  const batch: GuardContext['batch'] = { attempts: emptyToolRecord(), terminalCall: undefined };
  // Built field by field: an object spread here cost more than all five checks together.
  const full: GuardContext = {
    state: context.state,
    rules: context.rules,
    tools: context.tools,
    visible: context.visible,
    batch,
  };
  return calls.map((call) => {
    for (const { check } of GUARD_ORDER) {
      const block = check(call, full);
      if (block !== undefined) return block;
    }
    if (isAttempt({ name: call.name, allowed: true }, context.tools))
      batch.attempts[call.name] = (toolRecordValue(batch.attempts, call.name) ?? 0) + 1;
    if (context.rules.terminal.has(call.name)) batch.terminalCall ??= call.name;
    return undefined;
  });
}
