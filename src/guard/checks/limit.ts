import type { Check } from '../guardContext.js';
import { toolRecordValue } from '../toolRecord.js';

/** A limited tool is attempted at most its number of times per run, earlier calls of the same response included. */
export const limitCheck: Check = (call, { rules, state, batch }) => {
  const max = rules.limits.get(call.name);
  if (max === undefined) return undefined;
  const attempts =
    (toolRecordValue(state.attempts, call.name) ?? 0) + (toolRecordValue(batch.attempts, call.name) ?? 0);
  if (attempts < max) return undefined;
  return {
    rule: 'limit',
    message:
      `Tool '${call.name}' was blocked: it may be called at most ${max} time${max === 1 ? '' : 's'} in a run, ` +
      'and that limit is reached.',
  };
};
