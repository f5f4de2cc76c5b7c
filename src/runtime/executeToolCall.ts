import type { ToolResultBlock, ToolUseBlock } from '../messages/types.js';
import { isPlannedInstead, plannedMessage, type ExecutionMode } from '../guard/shadow.js';
import { capOutput } from '../tools/result/capOutput.js';
import { collectOutput, renderOutput } from '../tools/result/renderOutput.js';
import type { AnyTool, ToolContext } from '../tools/tool.js';
import { unknownToolMessage } from '../tools/unknownTool.js';
import { LegateError } from '../errors/LegateError.js';
import { abortable } from './abortable.js';
import type { ToolCall, ToolFailure, UnknownTool } from './agentResult.js';
import { transferRefusedMessage, transferredMessage } from './handoff.js';
import { pendingCall, type PendingCall } from './suspension.js';

/** What a tool call needs from the run it belongs to. */
export interface ToolCallScope {
  agent: string;
  /** The tools the model was shown. */
  tools: ReadonlyMap<string, AnyTool>;
  turn: number;
  signal: AbortSignal;
  now: () => Date;
  mode: ExecutionMode;
  /** Answers a call without running the tool (a replay serving recorded results), or returns undefined. */
  stub: ToolStub | undefined;
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
}

/** Decides a call's outcome in place of running the tool, or returns undefined to let it run. */
export type ToolStub = (block: ToolUseBlock, turn: number) => ToolCall | undefined;

export interface ExecutedToolCall {
  call: ToolCall;
  result: ToolResultBlock;
  /** For a planned call: the bound arguments it would have run with. */
  plannedInput?: unknown;
}

/**
 * Answers one tool_use block the guard let through: finds the tool, binds the model's input,
 * plans it (shadow mode) or runs it, and shapes what it returned. Every refusal and failure
 * becomes an `is_error` result the model can act on, and the same fact, as data, on the call
 * record. Only cancellation rejects.
 */
export async function executeToolCall(
  block: ToolUseBlock,
  scope: ToolCallScope,
): Promise<ExecutedToolCall | { pending: PendingCall }> {
  const base = { id: block.id, name: block.name, input: block.input, turn: scope.turn };
  const tool = scope.tools.get(block.name);
  if (tool === undefined) {
    const available = [...scope.tools.keys()];
    const error: UnknownTool = {
      error: 'unknown_tool',
      tool: block.name,
      message: unknownToolMessage(block.name, available),
      available,
    };
    return answered({ ...base, outcome: 'invalid', output: error.message, error });
  }
  const bound = tool.bind(block.input);
  if (!bound.ok) return answered({ ...base, outcome: 'invalid', output: bound.invalid.message, error: bound.invalid });
  if (isPlannedInstead(scope.mode, tool.privileged)) {
    return {
      ...answered({ ...base, outcome: 'planned', output: plannedMessage(tool.name), rule: 'shadow' }),
      plannedInput: bound.args,
    };
  }
  if (scope.needsApproval?.(tool, bound.args) === true) return { pending: pendingCall(block) };
  const handoff = scope.handoffs.get(tool.name);
  if (handoff !== undefined) {
    const reason = (bound.args as { reason?: unknown }).reason;
    const call: ToolCall = {
      ...base,
      outcome: 'ok',
      output: handoff.allowed ? transferredMessage(handoff.to) : transferRefusedMessage(handoff.to, handoff.max),
    };
    if (handoff.allowed) call.handoff = { to: handoff.to, ...(typeof reason === 'string' ? { reason } : {}) };
    return answered(call);
  }
  const stubbed = scope.stub?.(block, scope.turn);
  if (stubbed !== undefined) return answered(stubbed);

  try {
    let subRun: unknown;
    const context: ToolContext = {
      toolUseId: block.id,
      agent: scope.agent,
      signal: scope.signal,
      now: scope.now,
      reportUsage: scope.reportUsage,
      // Called only by tools that make model calls (sub-agents): a scoped transport is made then.
      subTransport: () => scope.transportFor(block.id),
      reportSubRun: (result) => {
        subRun = result;
      },
    };
    if (scope.idempotencyKey !== undefined) context.idempotencyKey = scope.idempotencyKey;
    const raw = await abortable(
      Promise.resolve().then(() => tool.run(bound.args, context)),
      scope.signal,
    );
    const collected = await abortable(collectOutput(raw, scope.signal), scope.signal);
    const capped = capOutput(tool.name, renderOutput(collected), tool.maxResultLength);
    const call: ToolCall = { ...base, outcome: 'ok', output: capped.content };
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
    return answered({ ...base, outcome: 'error', output: error.message, error });
  }
}

/** A call's record with the tool_result block that tells the model its outcome. */
export function answered(call: ToolCall): ExecutedToolCall {
  const result: ToolResultBlock = { type: 'tool_result', tool_use_id: call.id, content: call.output };
  if (call.outcome !== 'ok') result.is_error = true;
  return { call, result };
}

/** The model learns the tool and the error's class only: messages and stacks can hold secrets. */
function toolFailure(tool: string, thrown: unknown): ToolFailure {
  const errorClass =
    thrown instanceof Error
      ? thrown.constructor.name || thrown.name
      : `a thrown ${thrown === null ? 'null' : typeof thrown}`;
  return {
    error: 'tool_failed',
    tool,
    errorClass,
    message: `Tool '${tool}' failed with ${errorClass}.`,
    cause: thrown,
  };
}
