import type { AuditReport } from '../guard/audit/auditReport.js';
import { conversationsOf } from '../trajectory/conversationsOf.js';
import { describeUsage } from '../trajectory/describeUsage.js';
import { inputText } from '../trajectory/inputText.js';
import { resultText } from '../trajectory/resultText.js';
import type { RecordedBlock, RecordedResult, RecordedSubRun, RecordedTurn, Trajectory } from '../trajectory/types.js';
import { AuditMarks, type RunPlace } from './auditMarks.js';
import { prettyJson } from './prettyJson.js';
import { serverResultText } from './serverResultText.js';
import { linkTaintPath } from './taintPath.js';
import type { CallModel, PartModel, RunModel, TrajectoryModel, TurnModel } from './trajectoryModel.js';

/** What a run's calls are told: the tools a replay serves, the audit's findings. */
interface Context {
  served: ReadonlySet<string>;
  audit: AuditMarks;
}

/**
 * What the page shows of a trajectory (trajectoryModel.ts), derived from the file once. With the report of its audit
 * (`auditTrajectory`: for a file recorded at the HTTP boundary, whose tools carry no postures), the audit's findings
 * and taint path are shown as a recorded guard's are.
 */
export function viewModel(trajectory: Trajectory, audit?: AuditReport): TrajectoryModel {
  const context = { served: new Set(trajectory.serve ?? []), audit: new AuditMarks(audit) };
  const runs = conversationsOf(trajectory).map((conversation, i) =>
    runModel(conversation, context, { conversation: i + 1, inside: undefined }),
  );
  const calls = runs.flatMap(allCalls);
  const { summary } = trajectory;
  const tainted = summary.tainted === true ? { taintSource: summary.taintSource } : runs.find((run) => run.tainted);
  return {
    name: trajectory.name,
    description: trajectory.description,
    agent: trajectory.agent,
    model: trajectory.model,
    recordedAt: trajectory.recordedAt,
    runs,
    toolCalls: calls.length,
    blocked: calls.filter((call) => call.outcome === 'blocked').length,
    tainted: tainted !== undefined,
    taintSource: tainted?.taintSource,
    stopReason: summary.stopReason,
    usage: describeUsage(summary.usage),
  };
}

/** Every call of a run, its sub-agents' runs' included, in order. */
export function allCalls(run: RunModel): CallModel[] {
  return run.turns.flatMap((turn) =>
    turn.parts.flatMap((part) =>
      part.kind === 'call' ? [part.call, ...(part.call.subRun === undefined ? [] : allCalls(part.call.subRun))] : [],
    ),
  );
}

function runModel(run: RecordedSubRun, context: Context, place: RunPlace): RunModel {
  const lanes: string[] = [];
  let previous: string | undefined;
  const turns = run.turns.map((turn, i): TurnModel => {
    const lane = turn.agent ?? run.agent;
    if (!lanes.includes(lane)) lanes.push(lane);
    const model: TurnModel = {
      number: i + 1,
      lane,
      parts: partsOf(turn, i + 1, lane, context, place),
      stopReason: turn.response.stopReason ?? 'no stop reason',
      usage: describeUsage(turn.response.usage),
    };
    if (previous !== undefined && previous !== lane) {
      const reason = run.summary.handoffs?.findLast((h) => h.from === previous && h.to === lane && h.turn <= i)?.reason;
      model.handoff = reason === undefined ? { from: previous, to: lane } : { from: previous, to: lane, reason };
    }
    previous = lane;
    return model;
  });
  const model: RunModel = {
    agent: run.agent,
    model: run.model,
    input: inputText(run.input),
    turns,
    lanes: lanes.length === 0 ? [run.agent] : lanes,
    stopReason: run.summary.stopReason,
    tainted: run.summary.tainted === true,
    taintSource: run.summary.taintSource,
    usage: describeUsage(run.summary.usage),
  };
  const calls = allOwnCalls(model);
  // A run the audit found tainted: its taint is the call the audit names, as the summary names a recorded one's.
  const audited = calls.find((call) => context.audit.taints(place, call.id));
  if (!model.tainted && audited !== undefined) {
    model.tainted = true;
    model.taintSource = audited.tool;
    audited.taints = true;
  }
  linkTaintPath(calls, model.taintSource);
  return model;
}

/** The calls of a run itself, without its sub-agents' (whose taint is their own). */
function allOwnCalls(run: RunModel): CallModel[] {
  return run.turns.flatMap((turn) => turn.parts.flatMap((part) => (part.kind === 'call' ? [part.call] : [])));
}

function partsOf(turn: RecordedTurn, number: number, lane: string, context: Context, place: RunPlace): PartModel[] {
  const results = new Map((turn.results ?? []).map((result) => [result.id, result]));
  const serverResults = new Map<string, Record<string, unknown>>();
  for (const block of turn.response.content) {
    const other = otherBlock(block);
    if (other !== undefined && typeof other.tool_use_id === 'string') serverResults.set(other.tool_use_id, other);
  }
  const parts: PartModel[] = [];
  const cut = turn.response.incompleteToolUse;
  for (const [index, block] of turn.response.content.entries()) {
    if ('text' in block) parts.push({ kind: 'text', text: block.text });
    else if ('thinking' in block) parts.push({ kind: 'thinking', text: block.thinking });
    else if ('redactedThinking' in block) parts.push({ kind: 'thinking', text: undefined });
    else if ('toolUse' in block) {
      const { id, name, input } = block.toolUse;
      const approval = turn.approvals?.find((a) => a.id === id);
      const call = callModel({ id, tool: name, input, turn: number, lane }, results.get(id), approval, context, place);
      if (cut?.index === index) call.partialInput = cut.partialJson;
      parts.push({ kind: 'call', call });
    } else {
      const other = otherBlock(block)!;
      if (typeof other.tool_use_id === 'string' && serverResults.has(other.tool_use_id)) continue;
      if (typeof other.id === 'string' && typeof other.name === 'string' && other.type.endsWith('tool_use')) {
        const result = serverResults.get(other.id);
        parts.push({
          kind: 'call',
          call: {
            id: other.id,
            tool: other.name,
            turn: number,
            lane,
            input: other.input,
            outcome: result === undefined ? 'incomplete' : 'ok',
            server: true,
            output: result === undefined ? undefined : serverResultText(result),
            served: false,
            taints: false,
          },
        });
      } else parts.push({ kind: 'block', type: other.type, json: prettyJson(other) });
    }
  }
  return parts;
}

function callModel(
  asked: Pick<CallModel, 'id' | 'tool' | 'input' | 'turn' | 'lane'>,
  result: RecordedResult | undefined,
  approval: { approve: boolean; reason?: string | undefined } | undefined,
  context: Context,
  place: RunPlace,
): CallModel {
  const call: CallModel = {
    ...asked,
    outcome: result?.outcome ?? 'incomplete',
    server: false,
    output: result === undefined ? undefined : resultText(result.content),
    served: context.served.has(asked.tool) || result?.redactedInput === true,
    taints: false,
  };
  const audit = context.audit.markOf(place, asked.id);
  if (audit !== undefined) call.audit = audit;
  if (result !== undefined) {
    for (const key of ['rule', 'source', 'code', 'argument', 'errorClass'] as const)
      if (result[key] !== undefined) call[key] = result[key];
    if (result.untraced !== undefined)
      call.untraced = {
        argument: result.untraced.argument,
        value: result.untraced.value,
        foundIn: [...result.untraced.foundIn],
      };
    if (result.subRun !== undefined) {
      const inside = place.inside === undefined ? asked.id : `${place.inside} > ${asked.id}`;
      call.subRun = runModel(result.subRun, context, { conversation: place.conversation, inside });
    }
  }
  if (approval !== undefined)
    call.approval =
      approval.reason === undefined
        ? { approve: approval.approve }
        : { approve: approval.approve, reason: approval.reason };
  return call;
}

/** A block legate does not type (a server tool's use or result, a compaction), as the API sent it. */
function otherBlock(block: RecordedBlock): (Record<string, unknown> & { type: string }) | undefined {
  if ('block' in block) return block.block as Record<string, unknown> & { type: string };
  if ('server' in block) return block.server as Record<string, unknown> & { type: string };
  return undefined;
}
