import type { MessagesRequest } from '../messages/types.js';
import { toModelResponse } from '../trajectory/conversation.js';
import {
  extraCall,
  requestDivergence,
  unusedTurns,
  type DivergenceContext,
  type TrajectoryDivergenceError,
} from '../trajectory/divergence.js';
import type { MatchLevel } from '../trajectory/matchLevel.js';
import { actualRequest, compareRequests, expectedRequests } from '../trajectory/matchRequest.js';
import { redactRequest } from '../trajectory/redaction.js';
import type { Trajectory } from '../trajectory/types.js';
import { sseText, type SseEvent } from './exchange.js';

/** What the replay answers a request with: the recorded body, or why it refuses (the divergence). */
export type ReplayAnswer =
  | { kind: 'json'; body: unknown }
  | { kind: 'sse'; body: string }
  | { kind: 'refused'; error: TrajectoryDivergenceError };

/**
 * Serves a recorded conversation request by request, in order: the nth request is compared with
 * the recording's nth at the match level (after the declared redactions, as at recording), and
 * answered with the nth response, or refused with the divergence. After a refusal every request is refused.
 */
export class ExchangeReplay {
  readonly #expected;
  readonly #verified = new WeakMap<object, object>();
  #asked = 0;
  #failure: TrajectoryDivergenceError | undefined;

  constructor(
    readonly trajectory: Trajectory,
    readonly context: DivergenceContext,
    readonly match: MatchLevel,
    readonly redact: <T>(value: T) => T,
  ) {
    this.#expected = expectedRequests(trajectory);
  }

  /** The first divergence, if the run diverged. */
  get failure(): TrajectoryDivergenceError | undefined {
    return this.#failure;
  }

  answer(request: MessagesRequest): ReplayAnswer {
    if (this.#failure !== undefined) return { kind: 'refused', error: this.#failure };
    const turn = ++this.#asked;
    const recorded = this.trajectory.turns[turn - 1];
    if (recorded === undefined) return this.#refuse(extraCall(this.context, turn, this.trajectory.turns.length));
    const actual = actualRequest(redactRequest(this.redact, request));
    const difference = compareRequests(this.#expected[turn - 1]!, actual, this.match, this.#verified);
    if (difference !== undefined)
      return this.#refuse(
        requestDivergence(this.context, turn, difference.path, difference.expected, difference.actual),
      );
    const streamed = recorded.events !== undefined;
    const asked = (request as { stream?: unknown }).stream === true;
    if (asked !== streamed) return this.#refuse(requestDivergence(this.context, turn, 'stream', streamed, asked));
    if (streamed) return { kind: 'sse', body: sseText(recorded.events as SseEvent[]) };
    const { incompleteToolUse: _cut, ...body } = toModelResponse(recorded.response);
    return { kind: 'json', body };
  }

  /** The divergence that ended the run, or the turns it never asked for; undefined when it replayed whole. */
  finish(): TrajectoryDivergenceError | undefined {
    if (this.#failure !== undefined) return this.#failure;
    if (this.#asked < this.trajectory.turns.length)
      return unusedTurns(this.context, this.#asked, this.trajectory.turns.length);
    return undefined;
  }

  #refuse(error: TrajectoryDivergenceError): ReplayAnswer {
    this.#failure = error;
    return { kind: 'refused', error };
  }
}
