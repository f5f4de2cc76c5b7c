import type { ToolUseBlock } from '../messages/types.js';
import { applyOutcomes } from '../guard/applyOutcomes.js';
import type { Block } from '../guard/guardContext.js';
import { decideCalls } from '../guard/pipeline.js';
import { provenanceOf, type Provenance } from '../guard/provenance/provenance.js';
import { taintReview } from '../guard/taintReview.js';
import { serverToolUntrusted } from '../tools/serverTool.js';
import { addUsageTotals } from './runUsage.js';
import type { ToolCall } from './agentResult.js';
import type { EventLog } from './events.js';
import type { CallDecision } from './replayReferee.js';
import {
  answered,
  carryOut,
  decisionOf,
  prepareToolCall,
  type ExecutedToolCall,
  type PreparedCall,
  type ToolCallScope,
} from './executeToolCall.js';
import { executionMode, type RunConfig } from './runConfig.js';
import type { RunState } from './agentResult.js';
import type { PendingCall } from './approval/pendingCall.js';
import type { ToolSpan } from '../telemetry/toolSpan.js';
import { subAgentOf } from './agentGraph.js';

/** One response's calls after they ran: each answered, or waiting for a person. */
export interface BatchOutcome {
  answered: (ExecutedToolCall | undefined)[];
  pending: PendingCall[];
  /** The guard's decision for each call, in block order. */
  allowed: boolean[];
}

/**
 * Answers every tool_use of one response. The guard decides all of them first, in block order,
 * over the state the run had when the response arrived; the allowed calls then run
 * concurrently. A call that needs approval is left pending, and the run will stop for it.
 */
export async function runTools(
  config: RunConfig,
  state: RunState,
  toolUses: ToolUseBlock[],
  turn: number,
  signal: AbortSignal,
  log: EventLog,
): Promise<BatchOutcome> {
  const provenance = lazyProvenance(config, state);
  const decisions = decideCalls(toolUses, {
    state: state.guard,
    rules: config.agent.rules,
    tools: config.agent.facts,
    visible: [...config.agent.visibleTools.keys()],
    provenance,
  });
  const scope = toolScope(config, state, turn, signal);
  // Every call is decided before any runs: a replay compares the decisions with the recorded ones first.
  const prepared = toolUses.map((block, i) => {
    const decision = decisions[i];
    if (decision === undefined) return prepareToolCall(block, scope);
    if (!('held' in decision)) return decision;
    return prepareToolCall(block, scope, taintReview(state.guard, provenance().outside, decision.untraced));
  });
  const made = prepared.map((call) => decided(call!));
  scope.replay?.checkDecisions(
    turn,
    toolUses.map((block, i) => ({ id: block.id, name: block.name, decision: made[i]! })),
  );
  // Finished calls are told in block order, whatever order their tools finish in, so a replay (which serves some
  // results at once) tells what the recorded run told. A call after one that failed is not told.
  let told: Promise<unknown> = Promise.resolve();
  const spans = toolUses.map((block, i) => traceCall(config, turn, block, made[i]!));
  const outcomes = await Promise.all(
    toolUses.map((block, i) => {
      const call = prepared[i]!;
      const { name, id, input } = block;
      log.emit({ type: 'tool_called', agent: config.agent.name, turn, id, name, input, decision: made[i]! });
      const outcome =
        'rule' in call
          ? Promise.resolve(answered(blockedCall(block, call, turn)))
          : carryOut(block, scope, call, spans[i]);
      spans[i]?.follow(outcome);
      outcome.catch(() => undefined); // a failure reaches the run through the chain below
      const tell = told
        .then(() => outcome)
        .then((done) => {
          if ('call' in done) log.emit({ type: 'tool_finished', agent: config.agent.name, turn, call: done.call });
          return done;
        });
      told = tell;
      return tell;
    }),
  );
  return {
    answered: outcomes.map((outcome) => ('call' in outcome ? outcome : undefined)),
    pending: outcomes.flatMap((outcome) => ('pending' in outcome ? [outcome.pending] : [])),
    allowed: decisions.map((decision) => decision === undefined || 'held' in decision),
  };
}

/** Starts the execute_tool span of a call taken up, with the decision made for it (a no-op when untraced). */
export function traceCall(
  config: RunConfig,
  turn: number,
  block: ToolUseBlock,
  decision: CallDecision,
  approved?: boolean,
): ToolSpan | undefined {
  if (!config.run.trace.recording) return undefined;
  const tool = config.agent.visibleTools.get(block.name);
  return config.run.trace.tool({
    agent: config.agent.name,
    turn,
    block,
    decision,
    description: tool?.description,
    subAgent: tool === undefined ? undefined : subAgentOf(tool)?.name,
    ...(approved === undefined ? {} : { approved }),
  });
}

/**
 * The provenance of the run's conversation as the response's calls are decided, built on first use
 * (a tainted run's call of a tool with sensitive arguments, or one held for a person), then kept.
 */
function lazyProvenance(config: RunConfig, state: RunState): () => Provenance {
  let built: Provenance | undefined;
  return () => {
    built ??= provenanceOf(
      { system: config.agent.system, messages: state.messages },
      (name) => config.agent.facts.get(name),
      (name) => serverToolUntrusted(config.agent.serverTools, name),
    );
    return built;
  };
}

/** The decision a replay compares: the guard's refusal, or what the call would do. */
function decided(call: Block | PreparedCall): CallDecision {
  if (!('rule' in call)) return decisionOf(call);
  return { outcome: 'blocked', rule: call.rule, ...(call.source === undefined ? {} : { source: call.source }) };
}

/** What a call needs from its run; `approved` lifts the approval gate for calls a person approved. */
export function toolScope(
  config: RunConfig,
  state: RunState,
  turn: number,
  signal: AbortSignal,
  approved = false,
): ToolCallScope {
  const { run, agent } = config;
  const handoffsLeft = state.handoffs.length < run.maxHandoffs;
  return {
    agent: agent.name,
    tools: agent.visibleTools,
    turn,
    signal,
    now: run.now,
    mode: executionMode(config),
    stub: run.stub,
    replay: run.replay,
    needsApproval: approved ? undefined : agent.approvalRequired,
    handoffs: new Map(
      [...agent.handoffs].map(([tool, target]) => [
        tool,
        { to: target.name, allowed: handoffsLeft, max: run.maxHandoffs },
      ]),
    ),
    // Methods, not arrows: the build keeps every arrow's name by a call per arrow made (esbuild's keepNames).
    transportFor(toolUseId) {
      return run.transport.forToolCall?.(toolUseId);
    },
    replayFor(toolUseId) {
      return run.replay?.forToolCall(toolUseId);
    },
    reportUsage(usage) {
      addUsageTotals(state.usage, usage);
    },
  };
}

/**
 * Closes a response's batch: its calls join the run in block order, their results go back to
 * the model in one message, and the guard state takes in their outcomes.
 */
export function finishBatch(
  config: RunConfig,
  state: RunState,
  answered: ExecutedToolCall[],
  allowed: boolean[],
  turn: number,
): void {
  for (const { call, plannedInput } of answered) {
    state.toolCalls.push(call);
    if (call.outcome === 'planned') state.plannedEffects.push({ id: call.id, tool: call.name, input: plannedInput });
  }
  state.messages.push({ role: 'user', content: answered.map((e) => e.result) });
  state.guard = applyOutcomes(
    state.guard,
    answered.map(({ call }, i) => ({
      id: call.id,
      name: call.name,
      allowed: allowed[i] === true,
      succeeded: call.outcome === 'ok',
      toolWrote: call.error?.error === 'tool_error',
    })),
    turn,
    config.agent.facts,
    config.agent.rules,
  );
}

export function blockedCall(
  block: ToolUseBlock,
  decision: Pick<Block, 'message' | 'source' | 'untraced'> & { rule: ToolCall['rule'] },
  turn: number,
): ToolCall {
  const call: ToolCall = {
    id: block.id,
    name: block.name,
    input: block.input,
    outcome: 'blocked',
    output: decision.message,
    rule: decision.rule,
    turn,
  };
  if (decision.source !== undefined) call.source = decision.source;
  if (decision.untraced !== undefined) call.untraced = decision.untraced;
  return call;
}
