import type { Check } from '../guardContext.js';
import { toolRecordValue } from '../toolRecord.js';

/** A guarded tool runs only after each prerequisite succeeded in an earlier turn. */
export const prerequisiteCheck: Check = (call, { rules, state }) => {
  const missing = rules.prerequisites
    .get(call.name)
    ?.find((prerequisite) => toolRecordValue(state.successes, prerequisite) === undefined);
  if (missing === undefined) return undefined;
  return {
    rule: 'prerequisite',
    message:
      `Tool '${call.name}' was blocked: it can only run after '${missing}' has succeeded in an earlier step. ` +
      `Call '${missing}' first.`,
  };
};
