import type { MessagesRequest, ModelResponse } from '../../messages/types.js';
import { toModelResponse } from '../../trajectory/conversation.js';
import {
  extraCall,
  modelChanged,
  requestDivergence,
  unusedTurns,
  type DivergenceContext,
} from '../../trajectory/divergence.js';
import { redactRequest } from '../../trajectory/redaction.js';
import { rerecordCommand } from '../../trajectory/rerecordCommand.js';
import { DEFAULT_MATCH_LEVEL, type MatchLevel } from '../../trajectory/matchLevel.js';
import {
  actualRequest,
  compareRequests,
  expectedRequests,
  type ComparableRequest,
} from '../../trajectory/matchRequest.js';
import { TrajectoryFormatError } from '../../trajectory/errors.js';
import { formatPath } from '../../trajectory/field.js';
import { undescribedTurnAgent } from '../../trajectory/turnAgent.js';
import type { Trajectory } from '../../trajectory/types.js';
import type { SendOptions, Transport } from '../transport.js';
import { RecordedCalls } from './recordedCalls.js';
import type { RunTools } from './runTools.js';

export interface ReplayOptions {
  /** Names the recording in divergence messages. */
  file?: string;
  /** How closely each request must match. Default: the recording's `match`, else `exact`. */
  match?: MatchLevel;
  /** Applied to each live request before it is compared, as it was to the recording. */
  redact?: <T>(value: T) => T;
  /** The command that re-records the file, for divergence messages. */
  rerecord?: string;
  /**
   * Which tools run for real; the others are served from the recording. Default `safe`: the
   * tools without side effects run (see servedInReplay). A file's `serve:` adds tools always served.
   */
  runTools?: RunTools;
}

/**
 * Serves a recording's responses in order, offline, and checks that each request the runtime
 * makes is the one the recording says it made. The first difference is a
 * `TrajectoryDivergenceError` naming the file, the turn and the JSON path. Through `toolCalls`,
 * it has the runtime compare each call's decision with the recorded one before anything runs,
 * and serves the recorded results of tools with side effects instead of running them.
 */
export class ReplayTransport implements Transport {
  readonly #trajectory: Trajectory;
  readonly #level: MatchLevel;
  readonly #redact: <T>(value: T) => T;
  readonly #context: DivergenceContext;
  readonly #expected: ComparableRequest[];
  readonly #verified = new WeakMap<object, object>();
  readonly #children: ReplayTransport[] = [];
  readonly #runTools: RunTools | undefined;
  #calls = 0;
  /** The recording's say over tool calls: decisions compared before anything runs, side effects served. */
  readonly toolCalls: RecordedCalls;

  constructor(trajectory: Trajectory, options: ReplayOptions = {}) {
    this.#trajectory = trajectory;
    this.#level = options.match ?? trajectory.match ?? DEFAULT_MATCH_LEVEL;
    this.#redact = options.redact ?? ((value) => value);
    const file = options.file ?? `trajectory '${trajectory.name}'`;
    const rerecord =
      options.rerecord ??
      rerecordCommand({ file, runner: { kind: 'code' }, agent: trajectory.agent, legateModeSet: false });
    this.#context = { file, rerecord };
    // A file read from disk was checked by the reader; a trajectory built in code is checked here.
    const undescribed = undescribedTurnAgent(trajectory, 'trajectory');
    if (undescribed !== undefined) {
      const { message, path } = undescribed;
      throw new TrajectoryFormatError(message, file, undefined, undefined, formatPath(path));
    }
    this.#expected = expectedRequests(trajectory);
    this.#runTools = options.runTools;
    this.toolCalls = new RecordedCalls(trajectory, {
      context: this.#context,
      ...(options.runTools === undefined ? {} : { runTools: options.runTools }),
    });
  }

  /**
   * A sub-agent's calls inside a tool call are served from the run recorded under that call.
   * A call with no recorded run gets a replay of nothing, whose first request diverges.
   */
  forToolCall(toolUseId: string): ReplayTransport {
    const recorded = this.#trajectory.turns
      .flatMap((turn) => turn.results ?? [])
      .find((result) => result.id === toolUseId)?.subRun;
    const nested: Trajectory =
      recorded === undefined
        ? { ...this.#trajectory, turns: [], agents: undefined }
        : { ...this.#trajectory, ...recorded, agents: recorded.agents, clock: undefined };
    const child = new ReplayTransport(nested, {
      file: `${this.#context.file} (the run inside call ${toolUseId})`,
      match: this.#level,
      redact: this.#redact,
      rerecord: this.#context.rerecord,
      ...(this.#runTools === undefined ? {} : { runTools: this.#runTools }),
    });
    this.#children.push(child);
    return child;
  }

  /** Model calls served so far. */
  get calls(): number {
    return this.#calls;
  }

  async send(request: MessagesRequest, options: SendOptions = {}): Promise<ModelResponse> {
    options.signal?.throwIfAborted();
    const turn = ++this.#calls;
    const recorded = this.#trajectory.turns[turn - 1];
    if (recorded === undefined) throw extraCall(this.#context, turn, this.#trajectory.turns.length);
    const expectedModel = this.#expected[turn - 1]!.model;
    if (request.model !== expectedModel) throw modelChanged(this.#context, turn, expectedModel, request.model);
    const difference = compareRequests(
      this.#expected[turn - 1]!,
      actualRequest(redactRequest(this.#redact, request)),
      this.#level,
      this.#verified,
    );
    if (difference !== undefined)
      throw requestDivergence(this.#context, turn, difference.path, difference.expected, difference.actual);
    const response = toModelResponse(recorded.response);
    response.content.forEach((block, index) => {
      if (block.type === 'text') options.onStreamEvent?.({ type: 'text_delta', index, text: block.text });
    });
    return response;
  }

  /** Throws unless every recorded turn was asked for. */
  assertDone(): void {
    const recorded = this.#trajectory.turns.length;
    if (this.#calls < recorded) throw unusedTurns(this.#context, this.#calls, recorded);
    for (const child of this.#children) child.assertDone();
  }
}
