import { LegateError } from '../../errors/LegateError.js';

/** Why a suspension cannot be resumed. Every case fails closed: nothing runs. */
export type SuspensionErrorCode =
  | 'unsupported_version'
  | 'wrong_agent'
  | 'altered'
  | 'stale_approval'
  | 'undecided'
  /** A decision that is not `true` or `false`, or not for exactly the pending calls. */
  | 'invalid_decision'
  | 'already_resumed'
  /** `recover`: the run's claim is still held by a live resume, or there is no claim to recover. */
  | 'claim_active'
  | 'not_claimed'
  /** The claim was taken over by a recovery while this resume ran: it stops before running more. */
  | 'claim_lost';

export class SuspensionError extends LegateError {
  constructor(
    readonly code: SuspensionErrorCode,
    message: string,
  ) {
    super(message);
  }
}
