import { describeValue } from '../json/describeValue.js';
import type { Message } from '../messages/types.js';
import { copyGuardState, guardStateProblem, type GuardState } from '../guard/guardState.js';
import { historyShapeProblem } from '../guard/historyGuardState.js';
import { UsageError } from '../errors/UsageError.js';
import { telemetryOptionProblem } from '../telemetry/telemetryOptions.js';

/** The user's input to a run: a non-empty string or a non-empty list of content blocks. */
export function checkRunInput(input: unknown): void {
  const ok = (typeof input === 'string' && input !== '') || (Array.isArray(input) && input.length > 0);
  if (!ok)
    throw new UsageError(
      'invalid_run_input',
      `agent.run needs the user's input: a non-empty string or a list of content blocks, but it was ` +
        `${describeValue(input)}.`,
    );
}

/** A run's `history`: a list of messages (none when not given). */
export function checkedHistory(history: Message[] | undefined): Message[] {
  const given = history ?? [];
  const shape = historyShapeProblem(given);
  if (shape !== undefined)
    throw new UsageError('invalid_history', `agent.run's 'history' must be a list of messages: ${shape}.`);
  return given;
}

/** A run's `guard`: a guard state as a run returns it, copied so that the run cannot change the caller's. */
export function checkedGuardState(given: unknown): GuardState {
  const problem = guardStateProblem(given);
  if (problem !== undefined)
    throw new UsageError(
      'invalid_guard_state',
      `agent.run's 'guard' must be a guard state as a run returns it (result.guard): ${problem}.`,
    );
  return copyGuardState(given as GuardState);
}

/** A call's `telemetry` option. */
export function checkTelemetryOption(option: string, value: unknown): void {
  const problem = telemetryOptionProblem(option, value);
  if (problem !== undefined) throw new UsageError('invalid_telemetry_option', problem);
}
