import { randomUUID } from 'node:crypto';
import { isServerResult, serverUsesOf } from '../guard/conversationParts.js';
import { serverResultTaints } from '../guard/historyGuardState.js';
import { addTaintSource, copyGuardState } from '../guard/guardState.js';
import { toolUnderPolicy } from './toolPosture.js';
import { sentBack } from '../messages/sentBack.js';
import { serverToolUntrusted } from '../tools/serverTool.js';
import { answerIncomplete } from './incompleteCalls.js';
import { cacheControlOf, requestParameters } from './requestOptions.js';
import { copyThroughJson } from '../json/jsonText.js';
import { parseModelResponse } from '../messages/parseModelResponse.js';
import type { Message, MessagesRequest, ModelResponse, RequestTool, ToolUseBlock } from '../messages/types.js';
import type { StreamEvent } from '../transport/transport.js';
import { abortable } from './abortable.js';
import { addUsage } from './runUsage.js';
import type { AgentResult } from './agentResult.js';
import type { StopReason } from './stopReason.js';
import type { EventLog } from './events.js';
import type { ExecutedToolCall } from './executeToolCall.js';
import { handedTo, signingKey, type RunConfig } from './runConfig.js';
import type { RunState } from './agentResult.js';
import { toResult } from './toResult.js';
import { finishBatch, runTools, type BatchOutcome } from './runTools.js';
import { nextStep } from './stopReason.js';
import { serializable, signatureOf, SUSPENSION_VERSION } from './approval/suspension.js';
import type { Suspension } from './agentResult.js';

/**
 * The agent loop: ask the model, answer every tool_use of its response (concurrently, in one
 * user message, in block order), and repeat until the model stops, the turns run out, or a call
 * waits for approval. A transfer call hands the loop to another agent's configuration.
 */
export async function runLoop(
  start: RunConfig,
  state: RunState,
  runId: string,
  signal: AbortSignal,
  log: EventLog,
): Promise<AgentResult> {
  let config = start;
  let stopReason: StopReason = 'max_turns';
  while (state.agentTurns < config.agent.maxTurns) {
    const turn = ++state.turns;
    state.agentTurns++;
    log.emit({ type: 'turn_started', agent: config.agent.name, turn });
    const response = await askModel(config, state, turn, signal, log);
    state.responses.push(response);
    state.agents.push(config.agent.name);
    addUsage(state.usage, response);
    // Never an empty assistant message, never a cut-off tool_use: see sentBack.
    const content = sentBack(response);
    if (content !== undefined) state.messages.push({ role: 'assistant', content });
    if (response.content.some(isServerResult)) {
      const untrusted = (name: string) => serverToolUntrusted(config.agent.serverTools, name);
      const guard = copyGuardState(state.guard);
      for (const found of serverResultTaints(response.content, serverUsesOf(state.messages), untrusted))
        addTaintSource(guard, found);
      state.guard = guard;
    }
    const toolUses = response.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
    log.emit({
      type: 'model_responded',
      agent: config.agent.name,
      turn,
      stopReason: response.stop_reason,
      toolUses: toolUses.length,
    });

    const step = nextStep(response.stop_reason, toolUses.length > 0);
    // A response that stops with tool calls in it (cut off, refused) leaves none unanswered.
    if (step.kind === 'stop' && toolUses.length > 0) answerIncomplete(config, state, response, toolUses, turn, log);
    if (step.kind === 'stop') {
      // The answer that follows a terminal tool's success ends the run through that tool.
      stopReason = step.reason === 'end_turn' && state.guard.terminatedBy !== null ? 'terminal' : step.reason;
      break;
    }
    if (step.kind === 'run_tools') {
      const batch = await runTools(config, state, toolUses, turn, signal, log);
      if (batch.pending.length > 0) return suspend(config, state, runId, toolUses, batch, turn, log);
      config = closeBatch(config, state, batch.answered as ExecutedToolCall[], batch.allowed, turn, log);
    }
    // Otherwise a paused turn: sending the conversation back as it is lets the model resume.
  }
  log.emit({ type: 'run_finished', agent: config.agent.name, stopReason, usage: { ...state.usage } });
  return toResult(state, config.agent.name, stopReason, log.events);
}

/** A response's batch as it closes: every call answered, in block order, and the guard's decision for each. */
interface AnsweredBatch {
  turn: number;
  answered: ExecutedToolCall[];
  allowed: boolean[];
}

/**
 * The loop's entry for a resumed run (`approval/resumeRun.ts`): the batch the run was suspended in closes, its
 * pending calls now answered, and the loop goes on from there.
 */
export function continueRun(
  config: RunConfig,
  state: RunState,
  runId: string,
  batch: AnsweredBatch,
  signal: AbortSignal,
  log: EventLog,
): Promise<AgentResult> {
  const next = closeBatch(config, state, batch.answered, batch.allowed, batch.turn, log);
  return runLoop(next, state, runId, signal, log);
}

/** Ends a batch and, if one of its calls transferred the conversation, returns the target's configuration. */
function closeBatch(
  config: RunConfig,
  state: RunState,
  answered: ExecutedToolCall[],
  allowed: boolean[],
  turn: number,
  log: EventLog,
): RunConfig {
  finishBatch(config, state, answered, allowed, turn);
  const transfer = answered.find(({ call }) => call.handoff !== undefined)?.call;
  if (transfer?.handoff === undefined) return config;
  const target = config.agent.handoffs.get(transfer.name)!;
  const handoff = {
    from: config.agent.name,
    to: transfer.handoff.to,
    ...(transfer.handoff.reason === undefined ? {} : { reason: transfer.handoff.reason }),
    id: transfer.id,
    turn,
  };
  state.handoffs.push(handoff);
  state.agentTurns = 0;
  log.emit({ type: 'handoff', ...handoff });
  return handedTo(config, target.settings());
}

function suspend(
  config: RunConfig,
  state: RunState,
  runId: string,
  toolUses: ToolUseBlock[],
  batch: BatchOutcome,
  turn: number,
  log: EventLog,
): AgentResult {
  const suspension: Suspension = {
    version: SUSPENSION_VERSION,
    id: randomUUID(),
    runId,
    agent: config.agent.name,
    createdAt: new Date().toISOString(), // store metadata, not a reading of the run's clock (tools own that)
    pending: batch.pending,
    batch: {
      turn,
      ids: toolUses.map((block) => block.id),
      allowed: batch.allowed,
      answered: batch.answered.flatMap((outcome) => (outcome === undefined ? [] : [serializable(outcome.call)])),
      plannedInputs: Object.fromEntries(
        batch.answered.flatMap((outcome) =>
          outcome?.call.outcome === 'planned' ? [[outcome.call.id, outcome.plannedInput]] : [],
        ),
      ),
    },
    state: copyThroughJson({ ...state, toolCalls: state.toolCalls.map(serializable) }) as RunState,
  };
  const key = signingKey(config.run, config.agent);
  if (key !== undefined) suspension.signature = signatureOf(suspension, key);
  log.emit({ type: 'suspended', agent: config.agent.name, turn, pending: batch.pending.map((p) => p.id) });
  log.emit({ type: 'run_finished', agent: config.agent.name, stopReason: 'suspended', usage: { ...state.usage } });
  return { ...toResult(state, config.agent.name, 'suspended', log.events), suspension };
}

async function askModel(
  config: RunConfig,
  state: RunState,
  turn: number,
  signal: AbortSignal,
  log: EventLog,
): Promise<ModelResponse> {
  const request = buildRequest(config, state.messages, runContainer(state.responses));
  // A replay compares the posture of the tools behind the request (which the model never sees) first.
  config.run.replay?.offered(request, [
    ...[...config.agent.visibleTools.values()].map((tool) => toolUnderPolicy(tool, config.agent.onTaint)),
    ...config.agent.serverTools.values(),
  ]);
  return config.run.trace.chat({ agent: config.agent.name, turn, request }, async () =>
    parseModelResponse(
      await abortable(
        config.run.transport.send(request, {
          signal,
          ...(log.observesStream
            ? {
                onStreamEvent: (event: StreamEvent) =>
                  log.emit({ type: 'stream', agent: config.agent.name, turn, event }),
              }
            : {}),
        }),
        signal,
      ),
    ),
  );
}

/**
 * The container the run's latest response named, if any: a later request reuses it where the
 * agent set none (the code execution docs: pass the container id to keep its files and state;
 * programmatic tool calling needs it to answer a call made from inside the container).
 */
function runContainer(responses: readonly ModelResponse[]): string | undefined {
  // The responses only grow: each is looked at once, where the last look ended, so a turn costs no walk of them all.
  const known = containersNamed.get(responses) ?? { seen: 0, id: undefined };
  for (; known.seen < responses.length; known.seen++) known.id = responses[known.seen]!.container?.id ?? known.id;
  containersNamed.set(responses, known);
  return known.id;
}

/** By a run's list of responses: how many were looked at, and the latest container they named. */
const containersNamed = new WeakMap<readonly ModelResponse[], { seen: number; id: string | undefined }>();

function buildRequest({ agent, run }: RunConfig, messages: Message[], container?: string): MessagesRequest {
  // The conversation as it is now: a copy, unless the transport keeps nothing of a request (see keepsRequests).
  const sent = run.transport.keepsRequests === false ? messages : messages.slice();
  const request: MessagesRequest = { model: agent.model, max_tokens: agent.maxTokens, messages: sent };
  const cache = agent.request.cacheControl;
  const prefix = cache !== undefined && cache.at === 'prefix' ? cacheControlOf(cache) : undefined;
  if (agent.system !== undefined)
    request.system =
      prefix === undefined ? agent.system : [{ type: 'text', text: agent.system, cache_control: prefix }];
  const tools: RequestTool[] = [
    ...[...agent.visibleTools.values()].map((tool) => tool.definition()),
    ...[...agent.serverTools.values()].map((tool) => tool.definition()),
  ];
  if (prefix !== undefined && tools.length > 0) tools.push({ ...tools.pop()!, cache_control: prefix });
  if (tools.length > 0) request.tools = tools;
  if (agent.temperature !== undefined) request.temperature = agent.temperature;
  Object.assign(request, requestParameters(agent.request));
  const reused = agent.request.container ?? container;
  if (reused !== undefined) request.container = reused;
  if (run.output !== undefined) request.output_config = { format: run.output.format };
  return request;
}
