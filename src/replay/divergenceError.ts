import { LegateError } from '../errors/LegateError.js';

export type DivergenceKind =
  | 'request'
  | 'model_changed'
  | 'extra_call'
  | 'unused_turns'
  | 'missing_tool_result'
  | 'decision'
  | 'run_facts'
  | 'expectation'
  | 'tool_changed';

/**
 * A replayed run did something the recording did not. Carries `expected` and `actual`, so a
 * test runner shows the difference, and says how to re-record if the change is intended.
 */
export class TrajectoryDivergenceError extends LegateError {
  readonly code = 'trajectory_divergence';
  /** Raised inside a sub-agent's tool call, it stops the whole run instead of failing the call. */
  override readonly abortsRun = true;
  constructor(
    readonly kind: DivergenceKind,
    readonly file: string,
    /** The 1-based turn (model call) where the run diverged. */
    readonly turn: number,
    /** The JSON path in the request, where the difference is in a request. */
    readonly path: string | undefined,
    readonly expected: unknown,
    readonly actual: unknown,
    /** The command that re-records the file. */
    readonly rerecord: string,
    detail: string,
    /** What to do instead of re-recording, where re-recording is not the remedy. */
    advice?: string,
  ) {
    super(`${file}: ${detail}\n${advice ?? `If the change is intended, re-record the trajectory: ${rerecord}`}`);
  }
}

export interface DivergenceContext {
  file: string;
  rerecord: string;
}
