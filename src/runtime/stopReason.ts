import type { ApiStopReason } from '../messages/types.js';
import type { StopReason } from './agentResult.js';

/** What the loop does after a response: call the tools, send the paused turn back, or stop. */
export type NextStep = { kind: 'run_tools' } | { kind: 'continue_paused' } | { kind: 'stop'; reason: StopReason };

/**
 * Maps the API's stop reason, exactly, onto what the loop does next. A reason this release does
 * not know ends the run with it, as sent: what the model meant by it is unknown, so none of the
 * response's tool calls runs (the model did not ask for them with `tool_use`).
 */
export function nextStep(apiReason: ApiStopReason | null, hasToolUse: boolean): NextStep {
  switch (apiReason) {
    case 'tool_use':
      // A tool_use stop with no tool_use block has nothing to answer: the model is done.
      return hasToolUse ? { kind: 'run_tools' } : { kind: 'stop', reason: 'end_turn' };
    case 'pause_turn':
      return { kind: 'continue_paused' };
    case 'max_tokens':
      return { kind: 'stop', reason: 'max_tokens' };
    case 'stop_sequence':
      return { kind: 'stop', reason: 'stop_sequence' };
    case 'refusal':
      return { kind: 'stop', reason: 'refusal' };
    case 'model_context_window_exceeded':
      return { kind: 'stop', reason: 'context_window_exceeded' };
    case 'end_turn':
    case null:
      return { kind: 'stop', reason: 'end_turn' };
    default:
      return { kind: 'stop', reason: apiReason };
  }
}
