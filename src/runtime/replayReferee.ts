import type { MessagesRequest, ToolResultContent, ToolUseBlock } from '../messages/types.js';
import type { AnyTool } from '../tools/tool.js';
import type { ServerTool } from '../tools/serverTool.js';

/**
 * What the code decided for one tool call before anything ran: the fact a replay compares with
 * the recording. `run` covers a call that reached its tool (or transferred the conversation).
 */
export type CallDecision =
  | { outcome: 'run' }
  | { outcome: 'invalid'; code: string; argument?: string }
  | { outcome: 'blocked'; rule: string; source?: string }
  | { outcome: 'planned' }
  | { outcome: 'suspended' }
  /** Its response was cut off by max_tokens: not run. */
  | { outcome: 'incomplete' };

/** One call of a response with today's decision for it. */
export interface DecidedCall {
  id: string;
  name: string;
  decision: CallDecision;
}

/** A recorded result standing in for running a tool. */
export interface ServedResult {
  outcome: 'ok' | 'error';
  content: string | ToolResultContent[];
  /** For a recorded failure: the error's class. */
  errorClass?: string;
  /** Characters the tool produced, where its cap withheld some. */
  withheld?: { length: number; shown: number };
}

/**
 * The replay's say over a run: the port the runtime calls while it replays a recording (a run
 * takes it as its `replay` option; `runTrajectory` passes it). Nothing of it is a transport's:
 * the transport serves recorded responses, the referee judges what the runtime does with them.
 * For each model call the runtime tells it the tools behind the request before sending it; for
 * each response it asks it to check the decisions before any call runs, then, for each call that
 * would reach its tool, whether the recorded result is served instead of running it.
 */
export interface ReplayReferee {
  /**
   * The request about to be sent and the tools behind its definitions (server tools too): their
   * safety posture, which the model never sees, is compared with the recording's.
   */
  offered(request: MessagesRequest, tools: readonly (AnyTool | ServerTool)[]): void;
  /**
   * Compares today's decisions for one response's calls, in block order, with the recorded ones;
   * throws a `TrajectoryDivergenceError` of kind `decision` at the first that differs.
   */
  checkDecisions(turn: number, calls: readonly DecidedCall[]): void;
  /** The recorded result to answer a call with instead of running its tool, or undefined to run it. */
  serve(block: ToolUseBlock, turn: number, tool: AnyTool): ServedResult | undefined;
  /** The referee of the run recorded inside one call (a sub-agent's). */
  forToolCall(toolUseId: string): ReplayReferee;
}

/** @deprecated The former name of {@link ReplayReferee}. */
export type CallReplay = ReplayReferee;

/** The referee each replaying transport comes with, for a run over it that was given none. */
const refereeOfTransport = new WeakMap<object, ReplayReferee>();

/**
 * Pairs a replaying transport with its referee, so that a run over that transport is refereed
 * even where its caller passed no `replay` (an agent built around a `ReplayTransport` by hand, a
 * sub-agent inside a replayed call): a replay never runs a tool with side effects by default.
 */
export function pairReferee(transport: object, referee: ReplayReferee): void {
  refereeOfTransport.set(transport, referee);
}

/** The referee of a run: the one it was given, else the one its transport was paired with, else none. */
export function refereeOf(transport: object, given: ReplayReferee | undefined): ReplayReferee | undefined {
  return given ?? refereeOfTransport.get(transport);
}
