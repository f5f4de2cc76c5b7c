import type { ToolResultBlock, ToolUseBlock } from '../messages/types.js';
import { isPlannedInstead, plannedMessage, type ExecutionMode } from '../guard/shadow.js';
import type { TaintReview } from '../guard/taintReview.js';
import { capOutput } from '../tools/result/capOutput.js';
import { collectOutput, isAsyncIterable, renderOutput, type RenderedOutput } from '../tools/result/renderOutput.js';
import { isToolError } from '../tools/result/toolError.js';
import { errorClassOf, toolFailedMessage } from '../tools/result/toolFailure.js';
import type { AnyTool, ToolContext } from '../tools/tool.js';
import { unknownToolMessage } from '../tools/unknownTool.js';
import { LegateError } from '../errors/LegateError.js';
import type { CallDecision, ReplayReferee, ServedResult } from './replayReferee.js';
import { abortable } from './abortable.js';
import type { ToolCall, ToolCallOutcome } from './agentResult.js';
import type { ToolFailure, UnknownTool } from './toolCallError.js';
import { transferRefusedMessage, transferredMessage } from './handoff.js';
import { pendingCall, type PendingCall } from './approval/pendingCall.js';
import type { ToolSpan } from '../telemetry/toolSpan.js';

/** What a tool call needs from the run it belongs to. */
export interface ToolCallScope {
  agent: string;
  /** The tools the model was shown. */
  tools: ReadonlyMap<string, AnyTool>;
  turn: number;
  signal: AbortSignal;
  now: () => Date;
  mode: ExecutionMode;
  /** Answers a call without running the tool (a fuzzer planting outputs), or returns undefined. */
  stub: ToolStub | undefined;
  /** The recording's say over calls, when the run's transport replays one. */
  replay: ReplayReferee | undefined;
  /** Whether a call must wait for a person's approval; undefined when nothing needs approval (or it was given). */
  needsApproval: ((tool: AnyTool, args: unknown) => boolean) | undefined;
  /** For a call a person approved: the key its effect is made under, the same in every process. */
  idempotencyKey?: string;
  /** Transfer tools, by tool name: the target, and whether this run may still transfer. */
  handoffs: ReadonlyMap<string, { to: string; allowed: boolean; max: number }>;
  /** Adds a tool's own model usage (a sub-agent's) to the run's. */
  reportUsage: NonNullable<ToolContext['reportUsage']>;
  /** The transport for model calls made inside a call, where the run's transport scopes them. */
  transportFor: (toolUseId: string) => ReturnType<NonNullable<ToolContext['subTransport']>>;
  /** The replay's referee for the run recorded inside a call, while the run replays one. */
  replayFor: (toolUseId: string) => ReplayReferee | undefined;
}

/** Decides a call's outcome in place of running the tool, or returns undefined to let it run. */
export type ToolStub = (block: ToolUseBlock, turn: number) => ToolCall | undefined;

export interface ExecutedToolCall {
  call: ToolCall;
  result: ToolResultBlock;
  /** For a planned call: the bound arguments it would have run with. */
  plannedInput?: unknown;
}

/** What a call the guard let through will do, decided before anything of its response runs. */
export type PreparedCall =
  /** Answered without running anything: an unknown tool, an input the binder refused, a planned effect. */
  | { kind: 'answered'; executed: ExecutedToolCall }
  /** Waits for a person's approval. */
  | { kind: 'pending'; pending: PendingCall }
  /** Reaches its tool (or transfers the conversation), with the bound arguments. */
  | { kind: 'run'; tool: AnyTool; args: unknown };

/**
 * Decides what one tool_use block the guard let through will do, running nothing: finds the
 * tool, binds the model's input, and plans it (shadow mode) or holds it for approval: `held` (the
 * review of a call the guard held because the run is tainted) or `approvalRequired`.
 */
export function prepareToolCall(block: ToolUseBlock, scope: ToolCallScope, held?: TaintReview): PreparedCall {
  const tool = scope.tools.get(block.name);
  if (tool === undefined) {
    const available = [...scope.tools.keys()];
    const error: UnknownTool = {
      error: 'unknown_tool',
      tool: block.name,
      message: unknownToolMessage(block.name, available),
      available,
    };
    const call = callRecord(block, scope.turn, 'invalid', error.message);
    call.error = error;
    return { kind: 'answered', executed: answered(call) };
  }
  const bound = tool.bind(block.input);
  if (!bound.ok) {
    const call = callRecord(block, scope.turn, 'invalid', bound.invalid.message);
    call.error = bound.invalid;
    return { kind: 'answered', executed: answered(call) };
  }
  if (isPlannedInstead(scope.mode, tool.privileged)) {
    const call = callRecord(block, scope.turn, 'planned', plannedMessage(tool.name));
    call.rule = 'shadow';
    const executed = answered(call);
    executed.plannedInput = bound.args;
    return { kind: 'answered', executed };
  }
  if (held !== undefined) return { kind: 'pending', pending: pendingCall(block, held) };
  if (scope.needsApproval?.(tool, bound.args) === true) return { kind: 'pending', pending: pendingCall(block) };
  return { kind: 'run', tool, args: bound.args };
}

/** A prepared call's decision, as a replay compares it with the recorded one. */
export function decisionOf(prepared: PreparedCall): CallDecision {
  if (prepared.kind === 'pending') return { outcome: 'suspended' };
  if (prepared.kind === 'run') return { outcome: 'run' };
  const { call } = prepared.executed;
  if (call.outcome === 'planned') return { outcome: 'planned' };
  const error = call.error;
  if (error?.error === 'invalid_argument')
    return { outcome: 'invalid', code: error.code, ...(error.argument === null ? {} : { argument: error.argument }) };
  return { outcome: 'invalid', code: 'unknown_tool' };
}

/**
 * Answers one tool_use block the guard let through: decides it (see prepareToolCall), then
 * transfers, serves or runs it, and shapes what the tool returned. Every refusal and failure
 * becomes an `is_error` result the model can act on, and the same fact, as data, on the call
 * record. Only cancellation rejects.
 */
export function executeToolCall(
  block: ToolUseBlock,
  scope: ToolCallScope,
  span?: ToolSpan,
): Promise<ExecutedToolCall | { pending: PendingCall }> {
  return carryOut(block, scope, prepareToolCall(block, scope), span);
}

/**
 * Carries out a call already decided: a replay's check of the decision comes between the two. The
 * tool runs in its span's context, if the run is traced.
 */
export async function carryOut(
  block: ToolUseBlock,
  scope: ToolCallScope,
  prepared: PreparedCall,
  span?: ToolSpan,
): Promise<ExecutedToolCall | { pending: PendingCall }> {
  if (prepared.kind === 'answered') return prepared.executed;
  if (prepared.kind === 'pending') return { pending: prepared.pending };
  const { tool, args } = prepared;
  const handoff = scope.handoffs.get(tool.name);
  if (handoff !== undefined) {
    const reason = (args as { reason?: unknown }).reason;
    const call = callRecord(
      block,
      scope.turn,
      'ok',
      handoff.allowed ? transferredMessage(handoff.to) : transferRefusedMessage(handoff.to, handoff.max),
    );
    if (handoff.allowed) call.handoff = { to: handoff.to, ...(typeof reason === 'string' ? { reason } : {}) };
    return answered(call);
  }
  const stubbed = scope.stub?.(block, scope.turn);
  if (stubbed !== undefined) return answered(stubbed);
  const served = scope.replay?.serve(block, scope.turn, tool);
  if (served !== undefined) {
    span?.served();
    return answered(servedCall(served, block, scope.turn));
  }

  try {
    let subRun: unknown;
    const context: ToolContext = {
      toolUseId: block.id,
      agent: scope.agent,
      signal: scope.signal,
      now: scope.now,
      reportUsage: scope.reportUsage,
      // Called only by tools that make model calls (sub-agents): a scoped transport is made then. Methods, not
      // arrows: the build keeps every arrow's name by a call per arrow made (esbuild's keepNames), on every call.
      subTransport() {
        return scope.transportFor(block.id);
      },
      subReplay() {
        return scope.replayFor(block.id);
      },
      reportSubRun(result) {
        subRun = result;
      },
    };
    if (scope.idempotencyKey !== undefined) context.idempotencyKey = scope.idempotencyKey;
    const raw = await abortable(
      Promise.resolve().then(() =>
        span === undefined ? tool.run(args, context) : span.runIn(context, () => tool.run(args, context)),
      ),
      scope.signal,
    );
    // An output that streams (an async iterable) is collected, and waited for; any other value is collected already.
    scope.signal.throwIfAborted();
    const collected = isAsyncIterable(raw) ? await abortable(collectOutput(raw, scope.signal), scope.signal) : raw;
    // An error result the tool returned (toolError) is shaped like any output, then marked an error.
    const failed = isToolError(collected);
    const capped = capOutput(tool.name, renderOutput(failed ? collected.content : collected), tool.maxResultLength);
    const call = callRecord(block, scope.turn, failed ? 'error' : 'ok', capped.content);
    if (failed) call.error = { error: 'tool_error', tool: tool.name };
    if (capped.withheld !== undefined) call.withheld = capped.withheld;
    if (subRun !== undefined) call.subRun = subRun as ToolCall['subRun'];
    return answered(call);
  } catch (thrown) {
    // A cancelled run is not a failing tool: the whole run stops with the caller's reason.
    if (scope.signal.aborted) throw scope.signal.reason;
    // Nor is an error that means the run itself cannot go on (a replay that diverged inside a
    // sub-agent, a script that ran out): legate marks those `abortsRun`; the run stops, saying where.
    if (thrown instanceof LegateError && thrown.abortsRun) throw thrown;
    const error = toolFailure(tool.name, thrown);
    const call = callRecord(block, scope.turn, 'error', error.message);
    call.error = error;
    return answered(call);
  }
}

/**
 * A call's record: the block's facts, then the outcome's; the caller adds the rest. Not `{ ...base, outcome, ... }`:
 * on Node 20 each property an object literal adds after a spread costs about a microsecond, several times what the
 * rest of a refused call costs.
 */
function callRecord(block: ToolUseBlock, turn: number, outcome: ToolCallOutcome, output: RenderedOutput): ToolCall {
  return { id: block.id, name: block.name, input: block.input, turn, outcome, output };
}

/** A call's record with the tool_result block that tells the model its outcome. */
export function answered(call: ToolCall): ExecutedToolCall {
  const result: ToolResultBlock = { type: 'tool_result', tool_use_id: call.id, content: call.output };
  if (call.outcome !== 'ok') result.is_error = true;
  return { call, result };
}

/** A recorded result in place of the tool's: what the model was told then, and the facts kept of it. */
function servedCall(served: ServedResult, block: ToolUseBlock, turn: number): ToolCall {
  const call = callRecord(block, turn, served.outcome, served.content);
  if (served.errorClass !== undefined) {
    const message = typeof served.content === 'string' ? served.content : '';
    call.error = { error: 'tool_failed', tool: block.name, errorClass: served.errorClass, message, cause: undefined };
  } else if (served.outcome === 'error') {
    // A recorded error without a class is one the tool returned (toolError): the model read its words.
    call.error = { error: 'tool_error', tool: block.name };
  }
  if (served.withheld !== undefined) call.withheld = served.withheld;
  return call;
}

/** The model learns the tool and the error's class only: messages and stacks can hold secrets. */
function toolFailure(tool: string, thrown: unknown): ToolFailure {
  const errorClass = errorClassOf(thrown);
  return { error: 'tool_failed', tool, errorClass, message: toolFailedMessage(tool, errorClass), cause: thrown };
}
