import type { AgentResult } from './agentResult.js';
import type { StopReason } from './stopReason.js';
import type { RunState } from './agentResult.js';

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
