import type { ApiStopReason } from '../messages/types.js';

/** Why a run ended, for the reasons legate knows (see {@link StopReason}). */
export type KnownStopReason =
  /** The model finished its answer. */
  | 'end_turn'
  /** The model hit one of the request's stop sequences. */
  | 'stop_sequence'
  /** The model ran out of output tokens; `text` is cut off, and the response's tool calls are `incomplete`. */
  | 'max_tokens'
  /** The model declined to continue. */
  | 'refusal'
  /** The conversation no longer fits the model's context window. */
  | 'context_window_exceeded'
  /** The agent's `maxTurns` was reached while the model still wanted to call tools. */
  | 'max_turns'
  /** A terminal tool succeeded, and the model then gave its answer. */
  | 'terminal'
  /** A call waits for a person's approval: `result.suspension` holds the run. */
  | 'suspended';

/**
 * Why a run ended: one of the {@link KnownStopReason}s, or a stop reason the API added after this
 * release, as the API sent it (the run ends on it; the response's tool calls are `incomplete`).
 * Written so an editor still offers the known ones.
 */
export type StopReason = KnownStopReason | (string & {});

/** What the loop does after a response: call the tools, send the paused turn back, or stop. */
type NextStep = { kind: 'run_tools' } | { kind: 'continue_paused' } | { kind: 'stop'; reason: StopReason };

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
