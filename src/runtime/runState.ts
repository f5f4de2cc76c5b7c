import type { Message } from '../messages/types.js';
import type { GuardState } from '../guard/guardState.js';
import { emptyUsage } from './runUsage.js';
import type { RunState } from './agentResult.js';

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
