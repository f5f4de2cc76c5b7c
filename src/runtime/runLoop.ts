import { parseModelResponse } from '../messages/parseModelResponse.js';
import type { Message, MessagesRequest, ModelResponse, ToolUseBlock, UserBlock } from '../messages/types.js';
import type { GuardState } from '../guard/guardState.js';
import { abortable } from './abortable.js';
import { addUsage, emptyUsage, type AgentResult, type PlannedEffect, type StopReason, type ToolCall } from './agentResult.js';
import { EventLog } from './events.js';
import type { RunConfig } from './runConfig.js';
import { runTools } from './runTools.js';
import { nextStep } from './stopReason.js';

/**
 * The agent loop: ask the model, answer every tool_use of its response (concurrently, in one
 * user message, in block order), and repeat until the model stops or the turns run out.
 */
export async function runLoop(config: RunConfig, messages: Message[], guardState: GuardState, signal: AbortSignal, log: EventLog): Promise<AgentResult> {
  const { agent } = config;
  const usage = emptyUsage();
  const responses: ModelResponse[] = [];
  const toolCalls: ToolCall[] = [];
  const plannedEffects: PlannedEffect[] = [];
  const guard = { state: guardState };
  log.emit({ type: 'run_started', agent });

  let stopReason: StopReason = 'max_turns';
  for (let turn = 1; turn <= config.maxTurns; turn++) {
    log.emit({ type: 'turn_started', agent, turn });
    const response = await askModel(config, messages, turn, signal, log);
    responses.push(response);
    addUsage(usage, response);
    messages.push({ role: 'assistant', content: response.content });
    const toolUses = response.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
    log.emit({ type: 'model_responded', agent, turn, stopReason: response.stop_reason, toolUses: toolUses.length });

    const step = nextStep(response.stop_reason, toolUses.length > 0);
    if (step.kind === 'stop') {
      // The answer that follows a terminal tool's success ends the run through that tool.
      stopReason = step.reason === 'end_turn' && guard.state.terminatedBy !== null ? 'terminal' : step.reason;
      break;
    }
    if (step.kind === 'run_tools') {
      const executed = await runTools(config, guard, toolUses, turn, signal, log);
      for (const { call, plannedInput } of executed) {
        toolCalls.push(call);
        if (call.outcome === 'planned') plannedEffects.push({ id: call.id, tool: call.name, input: plannedInput });
      }
      messages.push({ role: 'user', content: executed.map((e) => e.result) satisfies UserBlock[] });
    }
    // Otherwise a paused turn: sending the conversation back as it is lets the model resume.
  }

  log.emit({ type: 'run_finished', agent, stopReason, usage: { ...usage } });
  return {
    agent,
    text: textOf(responses[responses.length - 1]),
    stopReason,
    messages,
    responses,
    toolCalls,
    usage,
    events: log.events,
    turns: responses.length,
    blocked: toolCalls.flatMap((call) =>
      call.outcome === 'blocked' && call.rule !== undefined && call.rule !== 'shadow'
        ? [{ id: call.id, tool: call.name, rule: call.rule, message: String(call.output), ...(call.source === undefined ? {} : { source: call.source }) }]
        : [],
    ),
    tainted: guard.state.taint !== null,
    taintSource: guard.state.taint?.source,
    plannedEffects,
    guard: guard.state,
  };
}

async function askModel(config: RunConfig, messages: Message[], turn: number, signal: AbortSignal, log: EventLog): Promise<ModelResponse> {
  const request = buildRequest(config, messages);
  const answer = await abortable(
    config.transport.send(request, {
      signal,
      onStreamEvent: (event) => log.emit({ type: 'stream', agent: config.agent, turn, event }),
    }),
    signal,
  );
  return parseModelResponse(answer);
}

export function buildRequest(config: RunConfig, messages: Message[]): MessagesRequest {
  const request: MessagesRequest = { model: config.model, max_tokens: config.maxTokens, messages: [...messages] };
  if (config.system !== undefined) request.system = config.system;
  if (config.visibleTools.size > 0) request.tools = [...config.visibleTools.values()].map((tool) => tool.definition());
  if (config.temperature !== undefined) request.temperature = config.temperature;
  if (config.thinking !== undefined) request.thinking = { type: 'enabled', budget_tokens: config.thinking.budgetTokens };
  return request;
}

function textOf(response: ModelResponse | undefined): string {
  if (response === undefined) return '';
  return response.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}
