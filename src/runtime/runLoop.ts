import { parseModelResponse } from '../messages/parseModelResponse.js';
import type { Message, MessagesRequest, ModelResponse, ToolUseBlock, UserBlock } from '../messages/types.js';
import type { AnyTool } from '../tools/tool.js';
import type { Transport } from '../transport/transport.js';
import { abortable } from './abortable.js';
import { addUsage, emptyUsage, type AgentResult, type StopReason, type ToolCall } from './agentResult.js';
import { EventLog } from './events.js';
import { executeToolCall, type ToolStub } from './executeToolCall.js';
import { nextStep } from './stopReason.js';

/** Everything a run needs from its agent, already checked. */
export interface RunConfig {
  agent: string;
  model: string;
  system: string | undefined;
  tools: ReadonlyMap<string, AnyTool>;
  transport: Transport;
  maxTurns: number;
  maxTokens: number;
  temperature: number | undefined;
  thinking: { budgetTokens: number } | undefined;
  now: () => Date;
  stub: ToolStub | undefined;
}

/**
 * The agent loop: ask the model, answer every tool_use of its response (concurrently, in one
 * user message, in block order), and repeat until the model stops or the turns run out.
 */
export async function runLoop(config: RunConfig, messages: Message[], signal: AbortSignal, log: EventLog): Promise<AgentResult> {
  const { agent } = config;
  const usage = emptyUsage();
  const responses: ModelResponse[] = [];
  const toolCalls: ToolCall[] = [];
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
      stopReason = step.reason;
      break;
    }
    if (step.kind === 'run_tools') {
      const executed = await runTools(config, toolUses, turn, signal, log);
      toolCalls.push(...executed.map((e) => e.call));
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
  if (config.tools.size > 0) request.tools = [...config.tools.values()].map((tool) => tool.definition());
  if (config.temperature !== undefined) request.temperature = config.temperature;
  if (config.thinking !== undefined) request.thinking = { type: 'enabled', budget_tokens: config.thinking.budgetTokens };
  return request;
}

async function runTools(config: RunConfig, toolUses: ToolUseBlock[], turn: number, signal: AbortSignal, log: EventLog) {
  const scope = { agent: config.agent, tools: config.tools, turn, signal, now: config.now, stub: config.stub };
  return Promise.all(
    toolUses.map(async (block) => {
      log.emit({ type: 'tool_called', agent: config.agent, turn, id: block.id, name: block.name, input: block.input });
      const executed = await executeToolCall(block, scope);
      log.emit({ type: 'tool_finished', agent: config.agent, turn, call: executed.call });
      return executed;
    }),
  );
}

function textOf(response: ModelResponse | undefined): string {
  if (response === undefined) return '';
  return response.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}
