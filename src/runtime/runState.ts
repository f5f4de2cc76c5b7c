import type { Message, ModelResponse } from '../messages/types.js';
import type { GuardState } from '../guard/guardState.js';
import {
  emptyUsage,
  type AgentResult,
  type PlannedEffect,
  type StopReason,
  type ToolCall,
  type Usage,
} from './agentResult.js';
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

/** A person's decision on the calls a run stopped for. */
export interface ApprovalRecord {
  /** The turn whose response held the calls. */
  turn: number;
  /** Each pending call's decision, by tool_use id. */
  decisions: { id: string; tool: string; approve: boolean; reason?: string }[];
}

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

/** The result of a run that ended (or stopped to wait for a person), from its state. */
export function toResult(
  state: RunState,
  agent: string,
  stopReason: StopReason,
  events: AgentResult['events'],
): AgentResult {
  const last = state.responses[state.responses.length - 1];
  return {
    agent,
    text: last === undefined ? '' : last.content.map((block) => (block.type === 'text' ? block.text : '')).join(''),
    stopReason,
    messages: state.messages,
    responses: state.responses,
    agents: state.agents,
    toolCalls: state.toolCalls,
    usage: state.usage,
    events,
    turns: state.turns,
    blocked: state.toolCalls.flatMap((call) =>
      call.outcome === 'blocked' && call.rule !== undefined && call.rule !== 'shadow'
        ? [
            {
              id: call.id,
              tool: call.name,
              rule: call.rule,
              message: String(call.output),
              ...(call.source === undefined ? {} : { source: call.source }),
            },
          ]
        : [],
    ),
    tainted: state.guard.taint !== null,
    taintSource: state.guard.taint?.source,
    plannedEffects: state.plannedEffects,
    guard: state.guard,
    handoffs: state.handoffs,
    approvals: state.approvals,
  };
}
