import type { ToolResultContent, ToolUseBlock } from '../messages/types.js';
import type { AnyTool } from '../tools/tool.js';
import type { CallDecision } from '../replay/callDecision.js';

export type { CallDecision };

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
 * The say a recording has over tool calls, on a transport that replays one (`transport.toolCalls`).
 * The runtime asks it for every response: first whether today's decisions are the recorded ones
 * (before any call of the response runs), then, for each call that would reach its tool, whether
 * the recorded result is served instead of running it.
 */
export interface CallReplay {
  /**
   * Compares today's decisions for one response's calls, in block order, with the recorded ones;
   * throws a `TrajectoryDivergenceError` of kind `decision` at the first that differs.
   */
  checkDecisions(turn: number, calls: readonly DecidedCall[]): void;
  /** The recorded result to answer a call with instead of running its tool, or undefined to run it. */
  serve(block: ToolUseBlock, turn: number, tool: AnyTool): ServedResult | undefined;
}
