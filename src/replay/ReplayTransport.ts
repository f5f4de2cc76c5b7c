import { firstDifference, type Difference } from '../json/firstDifference.js';
import type { Message, MessagesRequest, ModelResponse } from '../messages/types.js';
import { pairReferee } from '../runtime/replayReferee.js';
import type { ServerTool } from '../tools/serverTool.js';
import type { AnyTool } from '../tools/tool.js';
import { toModelResponse } from '../trajectory/conversation.js';
import { describeTools } from '../trajectory/describeTool.js';
import { extraCall, modelChanged, requestDiffers, unusedTurns } from './divergence.js';
import { toolChanged } from './toolDivergence.js';
import type { DivergenceContext } from './divergenceError.js';
import { rerecordCommand } from './rerecordCommand.js';
import { DEFAULT_MATCH_LEVEL, type MatchLevel } from '../trajectory/matchLevel.js';
import {
  actualHeader,
  agentOfTurn,
  compareRequests,
  expectedTurns,
  type ComparableHeader,
  type ExpectedTurn,
} from './matchRequest.js';
import { VerifiedConversation } from './VerifiedConversation.js';
import { VerifiedHeader } from './VerifiedHeader.js';
import { postureView, toolChanges, type ReplayToolChange } from './toolChanges.js';
import { TrajectoryFormatError } from '../trajectory/errors.js';
import { formatPath } from '../trajectory/field.js';
import { undescribedTurnAgent } from '../trajectory/turnAgent.js';
import type { RecordedTool, Trajectory } from '../trajectory/types.js';
import { streamEventsOf } from '../transport/streamEventsOf.js';
import type { SendOptions, Transport } from '../transport/transport.js';
import { RecordedCalls } from './recordedCalls.js';
import type { RunTools } from './runToolsPolicy.js';

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
 * `TrajectoryDivergenceError` naming the file, the turn and the JSON path. Its `referee` is the
 * recording's say over what the runtime does with the responses (a run's `replay` option): each
 * call's decision compared with the recorded one before anything runs, the recorded results of
 * tools with side effects served instead of running them, and the posture of the tools offered
 * compared with the recording's. A run over this transport that was given no referee gets this one.
 */
export class ReplayTransport implements Transport {
  readonly #trajectory: Trajectory;
  readonly #level: MatchLevel;
  readonly #redact: <T>(value: T) => T;
  readonly #context: DivergenceContext;
  /** The recorded conversation, whole, and each turn's request as a part of it. */
  readonly #conversation: Message[];
  readonly #expected: ExpectedTurn[];
  readonly #verified = new VerifiedConversation();
  readonly #verifiedHeader = new VerifiedHeader();
  /** The replays of the runs recorded inside calls (sub-agents'), by call id: one each. */
  readonly #children = new Map<string, ReplayTransport>();
  readonly #runTools: RunTools | undefined;
  /** Agents whose tools' posture was compared: once each. */
  readonly #postureCompared = new Set<string>();
  readonly #toolChanges: ReplayToolChange[] = [];
  /** Serving a sub-agent's run recorded under a call (see forToolCall). */
  #isSubRun = false;
  #calls = 0;
  /** The recording's say over the run: decisions compared before anything runs, side effects served. */
  readonly referee: RecordedCalls;
  /**
   * A request is compared while `send` runs; what is kept after is its messages one by one (VerifiedConversation),
   * never its list: the runtime need not copy the conversation for each turn.
   */
  readonly keepsRequests = false;

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
    ({ conversation: this.#conversation, turns: this.#expected } = expectedTurns(trajectory));
    this.#runTools = options.runTools;
    this.referee = new RecordedCalls(trajectory, {
      context: this.#context,
      ...(options.runTools === undefined ? {} : { runTools: options.runTools }),
      // A call decided differently is most likely explained by a tool's posture changed since the recording.
      changes: () => this.toolChanges,
      offered: (request, tools) => this.#comparePosture(request, tools),
      child: (toolUseId) => this.forToolCall(toolUseId).referee,
    });
    pairReferee(this, this.referee);
  }

  /**
   * A sub-agent's calls inside a tool call are served from the run recorded under that call.
   * A call with no recorded run gets a replay of nothing, whose first request diverges.
   */
  forToolCall(toolUseId: string): ReplayTransport {
    const made = this.#children.get(toolUseId);
    if (made !== undefined) return made;
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
    child.#isSubRun = true;
    this.#children.set(toolUseId, child);
    return child;
  }

  /** @deprecated The referee's former name: {@link ReplayTransport.referee}. */
  get toolCalls(): RecordedCalls {
    return this.referee;
  }

  /** The calls answered from the recording instead of running their tools, sub-agents' runs included. */
  get served(): readonly { id: string; tool: string }[] {
    return [...this.referee.served, ...[...this.#children.values()].flatMap((child) => child.served)];
  }

  /**
   * The tools whose safety posture differs from the recording (flags, policy, compensating tool,
   * output cap, annotations), this run's and its sub-agents', each once. Kept rather than thrown:
   * `assertDone` reports them, unless a divergence reported them first as its likely cause.
   */
  get toolChanges(): readonly ReplayToolChange[] {
    return [...this.#toolChanges, ...[...this.#children.values()].flatMap((child) => child.toolChanges)];
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
    const expected = this.#expected[turn - 1]!;
    if (request.model !== expected.header.model)
      throw modelChanged(this.#context, turn, expected.header.model, request.model);
    const difference = this.#compare(expected, request);
    if (difference !== undefined) {
      const tools = () => ({ recorded: this.#recordedTools(turn), today: this.#describe(request, []) });
      throw requestDiffers(this.#context, turn, difference, this.#level, tools, this.toolChanges);
    }
    const response = toModelResponse(recorded.response);
    if (options.onStreamEvent !== undefined) for (const event of streamEventsOf(response)) options.onStreamEvent(event);
    return response;
  }

  /**
   * The first difference between a turn's recorded request and the live one, redacted as the recording was. At
   * the exact level (the default), the header, then the conversation in time proportional to what is new in it.
   */
  #compare(expected: ExpectedTurn, request: MessagesRequest): Difference | undefined {
    if (this.#level !== 'exact') {
      const recorded = this.#conversation.slice(0, expected.messages);
      const messages = this.#redact(request.messages);
      const header = this.#withoutHiddenByFix(expected.header, request);
      return compareRequests(
        { ...header, messages: recorded },
        { ...this.#liveHeader(request), messages },
        this.#level,
      );
    }
    // What the header leaves out depends on the request's tools, a part of it: keyed by the recorded header alone.
    return (
      this.#verifiedHeader.compare(expected.header, request, () =>
        firstDifference(this.#withoutHiddenByFix(expected.header, request), this.#liveHeader(request)),
      ) ?? this.#verified.compare(this.#conversation, expected.messages, request.messages, this.#redact)
    );
  }

  /** A live request's header as the recording's was written: its system prompt redacted. */
  #liveHeader(request: MessagesRequest): ComparableHeader {
    const system = request.system === undefined ? {} : { system: this.#redact(request.system) };
    return actualHeader({ ...request, ...system });
  }

  /**
   * The referee's part before a request is sent: the posture of the tools behind it compared with
   * that of the agent in charge of the turn the request is for, once per agent, kept when it differs.
   */
  #comparePosture(request: MessagesRequest, tools: readonly (AnyTool | ServerTool)[]): void {
    const turn = this.#calls + 1;
    const recorded = this.#trajectory.turns[turn - 1];
    // A request beyond the recording is refused by `send`, which says so.
    if (recorded === undefined) return;
    const agent = recorded.agent ?? this.#trajectory.agent;
    if (this.#postureCompared.has(agent)) return;
    this.#postureCompared.add(agent);
    // Both sides as the posture comparison reads them (postureView), redacted: no schema's text is copied or redacted.
    const today = this.#redact(describeTools(request.tools ?? [], tools, { shareSchema: true }).map(postureView));
    for (const change of toolChanges(this.#recordedTools(turn, postureView), today, 'posture'))
      this.#toolChanges.push({ ...change, agent, turn });
  }

  /** The tools the recording offered on a turn, as its agent's header recorded them (or a view of each). */
  #recordedTools(turn: number, view?: (tool: RecordedTool) => RecordedTool): RecordedTool[] {
    const recorded = this.#trajectory.turns[turn - 1]!;
    const { tools: header } = agentOfTurn(this.#trajectory, recorded.agent);
    const tools = view === undefined ? header : header.map(view);
    const agent = recorded.agent ?? this.#trajectory.agent;
    // The recording redacted a sub-run's header and a handoff target's entry, not the file's own tools.
    return this.#isSubRun || agent !== this.#trajectory.agent ? tools : this.#redact(tools);
  }

  /**
   * The expected request without the tools a file demands be refused by authorization
   * (`expect.blocked` with rule `authorization`: a fuzz finding's) that today's agent no longer
   * offers: hiding the tool is how such a finding is fixed. A call of it is then refused, which
   * the decision check holds the file's expectation to.
   */
  #withoutHiddenByFix(expected: ComparableHeader, request: MessagesRequest): ComparableHeader {
    const hidden = (this.#trajectory.expect?.blocked ?? []).filter((b) => b.rule === 'authorization');
    if (hidden.length === 0) return expected;
    const offered = new Set((request.tools ?? []).map((tool) => tool.name));
    const gone = (name: string) => !offered.has(name) && hidden.some((b) => b.tool === name);
    return { ...expected, tools: expected.tools.filter((tool) => !gone(tool.name)) };
  }

  /** Today's tools as the header describes them, redacted as the recording's redacted header parts were. */
  #describe(request: MessagesRequest, tools: readonly (AnyTool | ServerTool)[]): RecordedTool[] {
    return this.#redact(describeTools(request.tools ?? [], tools));
  }

  /**
   * Throws unless every recorded turn was asked for and no tool's posture changed. A file that
   * states what must hold (`expect`: a fuzz finding) is checked by that instead: fixing the agent
   * it caught usually changes a tool's posture, and its replay must then pass.
   */
  assertDone(): void {
    if (this.#toolChanges.length > 0 && this.#trajectory.expect === undefined)
      throw toolChanged(this.#context, this.#toolChanges);
    const recorded = this.#trajectory.turns.length;
    if (this.#calls < recorded) throw unusedTurns(this.#context, this.#calls, recorded);
    for (const child of this.#children.values()) child.assertDone();
  }
}
