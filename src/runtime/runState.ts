import type { Message, ModelResponse } from '../messages/types.js';
import type { GuardState } from '../guard/guardState.js';
import { emptyUsage, type PlannedEffect, type ToolCall, type Usage } from './agentResult.js';
import type { ApprovalRecord } from './approval/approvalRecord.js';
import type { Handoff } from './handoff.js';

/**
 * Everything a run has accumulated, as plain data: what the loop reads and extends turn by
 * turn, and what a suspension saves so that a resumed run goes on exactly where it stopped.
 */
export interface RunState {
  messages: Message[];
  responses: ModelResponse[];
  /** The agent that made each response, in step with `responses`. */
  agents: string[];
  toolCalls: ToolCall[];
  plannedEffects: PlannedEffect[];
  usage: Usage;
  guard: GuardState;
  handoffs: Handoff[];
  /** Model calls made so far in the run. */
  turns: number;
  /** Model calls made by the agent now in charge (its maxTurns counts these). */
  agentTurns: number;
  /** Every decision a person made on a suspended run, in order. */
  approvals: ApprovalRecord[];
}

/** The state a run starts from: its conversation so far and its guard state. */
export function initialRunState(messages: Message[], guard: GuardState): RunState {
  return {
    messages,
    responses: [],
    agents: [],
    toolCalls: [],
    plannedEffects: [],
    usage: emptyUsage(),
    guard,
    handoffs: [],
    turns: 0,
    agentTurns: 0,
    approvals: [],
  };
}
