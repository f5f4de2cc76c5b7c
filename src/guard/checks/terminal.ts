import type { Check } from '../guardContext.js';

/** Nothing runs once a terminal tool has succeeded, nor after one earlier in the same response. */
export const terminalCheck: Check = (call, { state, batch }) => {
  if (state.terminatedBy !== null) {
    return {
      rule: 'terminal',
      message:
        `Tool '${call.name}' was not run: '${state.terminatedBy.tool}' has ended this run, so no further tools ` +
        'can be called. Answer with what you have.',
    };
  }
  if (batch.terminalCall !== undefined) {
    return {
      rule: 'terminal',
      message:
        `Tool '${call.name}' was not run: '${batch.terminalCall}', called before it in the same response, ends ` +
        `the run. Call it again only if '${batch.terminalCall}' failed.`,
    };
  }
  return undefined;
};
