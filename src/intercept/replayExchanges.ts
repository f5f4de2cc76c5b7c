import type { MessagesRequest, RequestTool } from '../messages/types.js';
import { firstDifference, type Difference } from '../json/firstDifference.js';
import { toModelResponse } from '../trajectory/conversation.js';
import { conversationsOf } from '../trajectory/conversationsOf.js';
import { describeTools } from '../trajectory/describeTool.js';
import { extraCall, requestDiffers, requestDivergence, unusedTurns } from '../replay/divergence.js';
import type { DivergenceContext, TrajectoryDivergenceError } from '../replay/divergenceError.js';
import type { MatchLevel } from '../trajectory/matchLevel.js';
import { actualRequest, compareRequests, expectedRequests, type ComparableRequest } from '../replay/matchRequest.js';
import { VerifiedConversation } from '../replay/VerifiedConversation.js';
import { normaliseRequest, type NormalisationName } from '../trajectory/normalisations.js';
import { redactRequest } from '../trajectory/redaction.js';
import type { Trajectory } from '../trajectory/types.js';
import { sseText, type SseEvent } from '../transport/scripted/sseEvents.js';
import { wholeRequest, type Answered } from './wholeRequest.js';

/** What the replay answers a request with: the recorded body, or why it refuses (the divergence). */
type ReplayAnswer =
  | { kind: 'json'; body: unknown }
  | { kind: 'sse'; body: string }
  | { kind: 'refused'; error: TrajectoryDivergenceError };

/** One recorded conversation being served: its turns, the requests they expect, how many were asked for. */
interface Served {
  trajectory: Trajectory;
  expected: ComparableRequest[];
  asked: number;
  context: DivergenceContext;
}

/**
 * Serves a recording's conversations request by request. A request (made whole where it continues
 * a server-held thread) is compared, at the match level and after the declared redactions as at
 * recording, with the next request of each conversation that has turns left, in file order; the
 * first that matches answers it with its next response. So each conversation is served in order,
 * and two clients, or concurrent requests, each get their own. A request that matches none is
 * refused with the divergence from the conversation it comes closest to; after a refusal every
 * request is refused.
 */
export class ExchangeReplay {
  readonly #conversations: Served[];
  readonly #verified = new VerifiedConversation();
  /** Each served response by id, with the whole request it answered: what a thread continues from. */
  readonly #answered = new Map<string, Answered>();
  #asked = 0;
  #failure: TrajectoryDivergenceError | undefined;
  /** The last request's tools, each a frozen copy (see #knownTools). */
  #tools: readonly RequestTool[] = [];

  constructor(
    readonly trajectory: Trajectory,
    readonly context: DivergenceContext,
    readonly match: MatchLevel,
    readonly redact: <T>(value: T) => T,
    /** What was normalised in the file's requests, and so in each request compared. */
    readonly normalised: readonly NormalisationName[] = [],
  ) {
    const conversations = conversationsOf(trajectory);
    this.#conversations = conversations.map((conversation, i) => ({
      trajectory: conversation,
      expected: expectedRequests(conversation),
      asked: 0,
      context:
        conversations.length === 1
          ? context
          : { ...context, file: `${context.file} (conversation ${i + 1} of ${conversations.length})` },
    }));
  }

  /** The first divergence, if the run diverged. */
  get failure(): TrajectoryDivergenceError | undefined {
    return this.#failure;
  }

  answer(request: MessagesRequest): ReplayAnswer {
    if (this.#failure !== undefined) return { kind: 'refused', error: this.#failure };
    this.#asked++;
    const left = this.#conversations.filter((served) => served.asked < served.trajectory.turns.length);
    if (left.length === 0) return this.#refuse(extraCall(this.context, this.#asked, this.#asked - 1));
    const whole = wholeRequest(request, (id) => this.#answered.get(id));
    if (!whole.ok) {
      const closest = left[0]!;
      return this.#refuse(
        requestDivergence(
          closest.context,
          closest.asked + 1,
          'thread.previous_message_id',
          'a response this replay served',
          whole.previousMessageId,
        ),
      );
    }
    const actual = actualRequest(
      this.#knownTools(redactRequest(this.redact, normaliseRequest(whole.request, this.normalised))),
    );
    let closest: { served: Served; difference: Difference } | undefined;
    for (const served of left) {
      const difference = compareRequests(served.expected[served.asked]!, actual, this.match, this.#verified);
      if (difference === undefined) return this.#serve(served, whole.request, request);
      if (closest === undefined || depth(difference.path) > depth(closest.difference.path))
        closest = { served, difference };
    }
    const { served, difference } = closest!;
    // Both sides' tools described as the header describes them, redacted alike: a change in them is said by meaning.
    const tools = () => ({
      recorded: this.redact(served.trajectory.tools),
      today: this.redact(describeTools(whole.request.tools ?? [], [])),
    });
    return this.#refuse(requestDiffers(served.context, served.asked + 1, difference, this.match, tools));
  }

  /**
   * The divergence that ended the run, or the turns it never asked for; undefined when it replayed whole.
   * `whyNothing` says why no request may have arrived, when none did.
   */
  finish(whyNothing: string): TrajectoryDivergenceError | undefined {
    if (this.#failure !== undefined) return this.#failure;
    const short = this.#conversations.find((served) => served.asked < served.trajectory.turns.length);
    if (short === undefined) return undefined;
    return unusedTurns(
      short.context,
      short.asked,
      short.trajectory.turns.length,
      this.#asked === 0 ? `No request reached the interception. ${whyNothing}` : undefined,
    );
  }

  #serve(served: Served, whole: MessagesRequest, request: MessagesRequest): ReplayAnswer {
    const turn = ++served.asked;
    const recorded = served.trajectory.turns[turn - 1]!;
    const streamed = recorded.events !== undefined;
    const asked = (request as { stream?: unknown }).stream === true;
    if (asked !== streamed) return this.#refuse(requestDivergence(served.context, turn, 'stream', streamed, asked));
    const { incompleteToolUse: _cut, ...response } = toModelResponse(recorded.response);
    this.#answered.set(response.id, { request: whole, response });
    if (streamed) return { kind: 'sse', body: sseText(recorded.events as SseEvent[]) };
    return { kind: 'json', body: response };
  }

  /**
   * The request with each tool that is the same as the one in its place in the last request (a client sends the
   * same tools every time) replaced by that one: a frozen copy, whose digest toolDigest took once and keeps.
   */
  #knownTools(request: MessagesRequest): MessagesRequest {
    if (request.tools === undefined) return request;
    const known = this.#tools;
    const tools = request.tools.map((tool, i) => {
      const before = known[i];
      return before !== undefined && firstDifference(before, tool) === undefined ? before : Object.freeze({ ...tool });
    });
    this.#tools = tools;
    return { ...request, tools };
  }

  #refuse(error: TrajectoryDivergenceError): ReplayAnswer {
    this.#failure = error;
    return { kind: 'refused', error };
  }
}

/**
 * How far into the conversation a difference lies: the index of the first message that differs,
 * past every header field but the model. The conversation a request differs from latest is the one it belongs to;
 * one for another model is the least likely (Claude Code's title request and its loop's first request differ there,
 * and either may arrive first).
 */
function depth(path: string): number {
  if (path === 'model') return -2;
  const message = /^messages\[(\d+)\]/.exec(path);
  return message === null ? -1 : Number(message[1]);
}
