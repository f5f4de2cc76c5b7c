import type { AgentResult } from '../runtime/agentResult.js';
import type { StopReason } from '../runtime/stopReason.js';
import type { Trajectory } from '../trajectory/types.js';
import { UsageError } from '../errors/UsageError.js';

/** One tool call as assertions see it, the same whether it comes from a live run or a file. */
export interface CallView {
  id: string;
  name: string;
  /** The input the model sent. */
  input: unknown;
  outcome: string;
  rule?: string;
  source?: string;
  /** The binder's code for an invalid call (or `unknown_tool`). */
  code?: string;
  argument?: string;
}

/** What every assertion reads: the structured facts of a run. */
export interface RunView {
  calls: CallView[];
  stopReason: StopReason;
  tainted: boolean;
  taintSource: string | undefined;
  /** The agent that started the run (never in `handoffs` unless it was handed back to). */
  startedWith: string;
  /** The agents the conversation was handed to, in order. */
  handoffs: string[];
  usage: { inputTokens: number; outputTokens: number };
}

/** A live result or a loaded trajectory, in the one shape the assertions read. */
export function viewOf(subject: AgentResult | Trajectory): RunView {
  if (isTrajectory(subject)) return viewOfTrajectory(subject);
  if (isAgentResult(subject)) return viewOfResult(subject);
  throw new UsageError(
    'not_a_run',
    'legate assertions take an AgentResult (from agent.run) or a Trajectory (from loadTrajectory), but got ' +
      `${subject === null ? 'null' : typeof subject}.`,
  );
}

/** Whether a subject is a loaded trajectory (rather than a live result). */
export function isTrajectory(value: unknown): value is Trajectory {
  return typeof value === 'object' && value !== null && 'version' in value && 'turns' in value && 'summary' in value;
}

/** Whether a subject is a live result (from `agent.run`). */
export function isAgentResult(value: unknown): value is AgentResult {
  return typeof value === 'object' && value !== null && 'toolCalls' in value && 'stopReason' in value;
}

function viewOfResult(result: AgentResult): RunView {
  const pending =
    result.suspension?.pending.map(
      (p): CallView => ({ id: p.id, name: p.tool, input: p.input, outcome: 'suspended' }),
    ) ?? [];
  return {
    calls: [
      ...result.toolCalls.map((call): CallView => {
        const view: CallView = { id: call.id, name: call.name, input: call.input, outcome: call.outcome };
        if (call.rule !== undefined) view.rule = call.rule;
        if (call.source !== undefined) view.source = call.source;
        if (call.error?.error === 'invalid_argument') {
          view.code = call.error.code;
          if (call.error.argument !== null) view.argument = call.error.argument;
        } else if (call.error?.error === 'unknown_tool') view.code = 'unknown_tool';
        return view;
      }),
      ...pending,
    ],
    stopReason: result.stopReason,
    tainted: result.tainted,
    taintSource: result.taintSource,
    startedWith: result.handoffs[0]?.from ?? result.agent,
    handoffs: result.handoffs.map((h) => h.to),
    usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens },
  };
}

function viewOfTrajectory(trajectory: Trajectory): RunView {
  const calls: CallView[] = [];
  for (const turn of trajectory.turns) {
    const inputs = new Map(
      turn.response.content.flatMap((block) =>
        'toolUse' in block ? [[block.toolUse.id, block.toolUse.input] as const] : [],
      ),
    );
    for (const result of turn.results ?? []) {
      const view: CallView = {
        id: result.id,
        name: result.tool,
        input: inputs.get(result.id),
        outcome: result.outcome,
      };
      if (result.rule !== undefined) view.rule = result.rule;
      if (result.source !== undefined) view.source = result.source;
      if (result.code !== undefined) view.code = result.code;
      if (result.argument !== undefined) view.argument = result.argument;
      calls.push(view);
    }
  }
  return {
    calls,
    stopReason: trajectory.summary.stopReason,
    tainted: trajectory.summary.tainted === true,
    taintSource: trajectory.summary.taintSource,
    startedWith: trajectory.agent,
    handoffs: trajectory.summary.handoffs?.map((h) => h.to) ?? [],
    usage: { inputTokens: trajectory.summary.usage.input, outputTokens: trajectory.summary.usage.output },
  };
}
