import type { MessagesRequest, ModelResponse, UserBlock } from '../messages/types.js';
import type { AgentResult, ToolCall } from '../runtime/agentResult.js';
import type { Usage } from '../runtime/runUsage.js';
import type { AnyTool } from '../tools/tool.js';
import type { ServerTool } from '../tools/serverTool.js';
import { toRecordedResponse } from '../trajectory/conversation.js';
import { TOTALS_COUNTERS } from '../trajectory/format/usage.js';
import { describeTools } from '../trajectory/describeTool.js';
import { recordedRequestOf } from '../trajectory/requestParameters.js';
import {
  TRAJECTORY_VERSION,
  type RecordedResult,
  type RecordedSubRun,
  type RecordedTotals,
  type Trajectory,
} from '../trajectory/types.js';
import { legateVersion } from '../version.js';

export interface RunRecord {
  name: string;
  description?: string;
  agent: { name: string };
  input: string | UserBlock[];
  result: AgentResult;
  /** Every request the runtime sent, one per response: each agent's parameters and tools come from its first. */
  requests: MessagesRequest[];
  /** The requests sub-agents sent inside tool calls, by tool_use id (a recording transport's children). */
  subRequests?: ReadonlyMap<string, { requests: MessagesRequest[]; subRequests?: RunRecord['subRequests'] }>;
  /** The tools of every agent in the run (server tools too), for their safety flags. */
  tools: readonly (AnyTool | ServerTool)[];
  clock: string[];
  recordedAt: Date;
  sdkVersion: string | undefined;
}

/** Writes a finished run down as a trajectory: the conversation, and the facts behind each tool call. */
export function fromRun(record: RunRecord): Trajectory {
  const { result } = record;
  const firstRequest = record.requests[0]!;
  const agentOf = (turn: number) => result.agents[turn] ?? record.agent.name;
  // The calls grouped by turn once: a run of many turns is written in time proportional to its length.
  const callsByTurn = new Map<number, ToolCall[]>();
  for (const call of result.toolCalls) {
    const calls = callsByTurn.get(call.turn);
    if (calls === undefined) callsByTurn.set(call.turn, [call]);
    else calls.push(call);
  }
  const trajectory: Trajectory = {
    version: TRAJECTORY_VERSION,
    name: record.name,
    recordedAt: record.recordedAt.toISOString(),
    legate: legateVersion(),
    agent: record.agent.name,
    model: result.responses[0]?.model ?? firstRequest.model,
    request: recordedRequestOf(firstRequest),
    tools: describeTools(firstRequest.tools ?? [], record.tools),
    input: record.input,
    turns: result.responses.map((response, i) => {
      const turn = recordedTurn(response, callsOfTurn(result, i + 1, record, callsByTurn.get(i + 1) ?? []));
      const approvals = result.approvals.find((a) => a.turn === i + 1);
      if (approvals !== undefined)
        turn.approvals = approvals.decisions.map(({ id, approve, reason }) => ({
          id,
          approve,
          ...(reason === undefined ? {} : { reason }),
        }));
      // With more than one agent in the run, every turn names the agent that made it.
      return result.agents.some((name) => name !== record.agent.name) ? { agent: agentOf(i), ...turn } : turn;
    }),
    summary: {
      stopReason: result.stopReason,
      turns: result.turns,
      ...(result.tainted
        ? { tainted: true, ...(result.taintSource === undefined ? {} : { taintSource: result.taintSource }) }
        : {}),
      usage: recordedTotals(result.usage),
    },
  };
  if (record.description !== undefined) trajectory.description = record.description;
  const others = [...new Set(result.agents)].filter((name) => name !== record.agent.name);
  if (others.length > 0) {
    trajectory.agents = Object.fromEntries(
      others.map((name) => {
        const request = record.requests[result.agents.indexOf(name)]!;
        return [
          name,
          {
            request: recordedRequestOf(request),
            tools: describeTools(request.tools ?? [], record.tools),
          },
        ];
      }),
    );
  }
  if (result.handoffs.length > 0) {
    trajectory.summary.handoffs = result.handoffs.map(({ from, to, reason, turn }) => ({
      from,
      to,
      ...(reason === undefined ? {} : { reason }),
      turn,
    }));
  }
  if (record.sdkVersion !== undefined) trajectory.sdk = record.sdkVersion;
  if (record.clock.length > 0) trajectory.clock = record.clock;
  return trajectory;
}

/** The run's usage totals as the summary holds them: `input` and `output`, and every other counter that is not 0. */
function recordedTotals(usage: Usage): RecordedTotals {
  const totals: RecordedTotals = { input: usage.inputTokens, output: usage.outputTokens };
  for (const [name, counter] of Object.entries(TOTALS_COUNTERS) as [keyof typeof TOTALS_COUNTERS, keyof Usage][]) {
    if (usage[counter] !== 0) totals[name] = usage[counter];
  }
  return totals;
}

function recordedTurn(response: ModelResponse, results: RecordedResult[]): Trajectory['turns'][number] {
  const turn: Trajectory['turns'][number] = { response: toRecordedResponse(response) };
  if (results.length > 0) turn.results = results;
  return turn;
}

/**
 * The calls answered in a turn. For the turn a run is still suspended on, the calls already
 * answered, and the pending ones as `suspended`, in block order.
 */
function callsOfTurn(
  result: AgentResult,
  turn: number,
  record: RunRecord,
  calls: readonly ToolCall[],
): RecordedResult[] {
  const suspension = result.suspension;
  const withSubRun = (call: ToolCall): RecordedResult => {
    const recorded = recordedResult(call);
    const sub = record.subRequests?.get(call.id);
    if (call.subRun !== undefined && sub !== undefined && sub.requests.length > 0)
      recorded.subRun = subRunOf(call.subRun, sub, record);
    return recorded;
  };
  if (suspension === undefined || suspension.batch.turn !== turn) return calls.map(withSubRun);
  return suspension.batch.ids.map((id) => {
    const answered = suspension.batch.answered.find((call) => call.id === id);
    if (answered !== undefined) return recordedResult(answered);
    const pending = suspension.pending.find((p) => p.id === id)!;
    return { id, tool: pending.tool, outcome: 'suspended', content: '' };
  });
}

/** A sub-agent's run, recorded the way a file records its own. */
function subRunOf(
  result: AgentResult,
  sub: { requests: MessagesRequest[]; subRequests?: RunRecord['subRequests'] },
  parent: RunRecord,
): RecordedSubRun {
  const input = (result.messages[0]?.content ?? '') as RunRecord['input'];
  const full = fromRun({
    ...parent,
    agent: { name: result.agents[0] ?? result.agent },
    input,
    result,
    requests: sub.requests,
    subRequests: sub.subRequests,
  });
  const run: RecordedSubRun = {
    agent: full.agent,
    model: full.model,
    request: full.request,
    tools: full.tools,
    input: full.input,
    turns: full.turns,
    summary: full.summary,
  };
  if (full.agents !== undefined) run.agents = full.agents;
  return run;
}

/** A tool call's outcome and the structured facts behind it, never the error's message or stack. */
function recordedResult(call: ToolCall): RecordedResult {
  const result: RecordedResult = { id: call.id, tool: call.name, outcome: call.outcome, content: call.output };
  const error = call.error;
  if (error?.error === 'invalid_argument') {
    result.code = error.code;
    if (error.argument !== null) result.argument = error.argument;
    if (error.path.length > 0) result.path = error.path;
  } else if (error?.error === 'unknown_tool') {
    result.code = 'unknown_tool';
  } else if (error?.error === 'tool_failed') {
    result.errorClass = error.errorClass;
  }
  if (call.rule !== undefined) result.rule = call.rule;
  if (call.source !== undefined) result.source = call.source;
  if (call.untraced !== undefined)
    result.untraced = {
      argument: call.untraced.argument,
      value: call.untraced.value,
      foundIn: [...call.untraced.foundIn],
    };
  if (call.withheld !== undefined) result.withheld = call.withheld;
  return result;
}
