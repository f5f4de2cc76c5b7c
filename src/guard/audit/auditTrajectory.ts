import { applyOutcomes, type CallOutcome } from '../applyOutcomes.js';
import { compileRules, type ToolFacts } from '../guardContext.js';
import { addTaintSource, copyGuardState, initialGuardState } from '../guardState.js';
import { serverUsesOf } from '../conversationParts.js';
import { serverResultTaints } from '../historyGuardState.js';
import { decideBatch } from '../pipeline.js';
import { provenanceOf, type Provenance, type ProvenanceTool } from '../provenance/provenance.js';
import { isPlainObject } from '../../json/jsonValue.js';
import { sentBack } from '../../messages/sentBack.js';
import type { Message } from '../../messages/types.js';
import { defaultServerToolUntrusted } from '../../tools/serverTool.js';
import { conversationBefore, fromRecordedBlock } from '../../trajectory/conversation.js';
import { conversationsOf } from '../../trajectory/conversationsOf.js';
import type { Trajectory } from '../../trajectory/types.js';
import { resolveDeclarations, type AuditDeclarations } from '../auditDeclarations.js';
import type { AuditedCall, AuditFinding, AuditReport, AuditStep } from './auditReport.js';
import { describeAudit } from './auditTimeline.js';

/**
 * Reports what legate's guard would have refused in a recorded run (any trajectory: the runtime's,
 * or one recorded at the HTTP boundary from a foreign agent), had `declarations` been in force:
 * a privileged call after untrusted content entered the conversation, a call before its
 * prerequisite succeeded, a call over its limit. It replays the guard's own decisions
 * (decideBatch, applyOutcomes) over the recorded responses, turn by turn, as a live run would
 * make them: a call it would refuse counts as refused afterwards (no success, no attempt), since
 * the model's responses are the recorded ones whatever the guard says. A result taints when the
 * tool succeeded or returned an error result (`error` without an `errorClass`); a server tool's
 * result in a response taints as in a live run (tool search excepted). A file holding several
 * conversations has each audited on its own, as the guard follows one run's context: content the code
 * between them carries from one conversation into another is not seen. A sub-agent's run recorded
 * inside a tool call is audited as a run of its own, as a sub-agent runs with a guard state of its
 * own; its steps follow the call that ran it.
 */
export function auditTrajectory(trajectory: Trajectory, declarations: AuditDeclarations): AuditReport {
  const conversations = conversationsOf(trajectory);
  const steps = conversations.flatMap((conversation, i) =>
    auditConversation(conversation, declarations, conversations.length === 1 ? {} : { conversation: i + 1 }),
  );
  const findings = steps.flatMap((step) => (step.finding === undefined ? [] : [step.finding]));
  return { clean: findings.every((f) => !f.ran), findings, steps, text: describeAudit(findings, steps) };
}

/** Where a call was made: which conversation of the file, inside which call's sub-agent run. */
type Where = Pick<AuditedCall, 'conversation' | 'inside'>;

/** One run's calls, each with the guard's verdict, and those of the sub-agents' runs inside them. */
function auditConversation(trajectory: Trajectory, declarations: AuditDeclarations, at: Where): AuditStep[] {
  const offered = trajectory.tools.map((tool) => tool.name);
  const recordedHints = Object.fromEntries(
    trajectory.tools.flatMap((tool) =>
      tool.annotations === undefined
        ? []
        : [
            [
              tool.name,
              {
                readOnlyHint: tool.annotations.readOnly,
                destructiveHint: tool.annotations.destructive,
                openWorldHint: tool.annotations.openWorld,
              },
            ],
          ],
    ),
  );
  const schemas = [...trajectory.tools, ...Object.values(trajectory.agents ?? {}).flatMap((agent) => agent.tools)];
  const argumentsOf = (name: string) => {
    const properties = schemas.find((tool) => tool.name === name)?.inputSchema?.properties;
    return isPlainObject(properties) ? properties : undefined;
  };
  const { tools, rules: list } = resolveDeclarations(declarations, offered, recordedHints, argumentsOf);
  const rules = compileRules(list);
  const visible = [...tools.keys()];
  const serverUses = serverUsesOf(conversationBefore(trajectory, trajectory.turns.length + 1));
  const steps: AuditStep[] = [];
  /** This run's own steps, without its sub-agents' (whose ids may repeat the run's). */
  const own: AuditStep[] = [];
  let state = initialGuardState();
  /** The turn in which untrusted content entered the conversation. */
  let taintTurn = 0;
  for (const [i, recorded] of trajectory.turns.entries()) {
    const turn = i + 1;
    const found = serverResultTaints(
      recorded.response.content.map(fromRecordedBlock),
      serverUses,
      defaultServerToolUntrusted,
    );
    if (found.length > 0) {
      // As the live loop does: every server tool result of the response is a taint source, the first one the taint.
      if (state.taint === null) taintTurn = turn;
      state = copyGuardState(state);
      for (const source of found) addTaintSource(state, source);
    }
    const results = new Map((recorded.results ?? []).map((result) => [result.id, result]));
    const calls = recorded.response.content
      .flatMap((block) => ('toolUse' in block ? [{ id: block.toolUse.id, name: block.toolUse.name, ...at }] : []))
      // A call cut off by max_tokens was never decided.
      .filter((call) => results.get(call.id)?.outcome !== 'incomplete');
    const inputs = new Map(
      recorded.response.content.flatMap((block) =>
        'toolUse' in block ? [[block.toolUse.id, block.toolUse.input]] : [],
      ),
    );
    const provenance = lazyProvenance(trajectory, turn, tools);
    const decisions = decideBatch(
      calls.map((call) => ({ id: call.id, name: call.name, input: inputs.get(call.id) })),
      { state, rules, tools, visible, provenance },
    );
    const outcomes: CallOutcome[] = calls.map((call, j) => {
      const result = results.get(call.id);
      const allowed = decisions[j] === undefined;
      const step: AuditStep = { ...call, turn, recorded: result?.outcome ?? 'unanswered' };
      const block = decisions[j];
      if (block !== undefined) {
        const finding: AuditFinding = {
          rule: block.rule as AuditFinding['rule'],
          call: { ...call, turn },
          ...(block.untraced === undefined ? {} : { untraced: block.untraced }),
          message: block.message,
          ran: result?.outcome === 'ok' || result?.outcome === 'error',
        };
        if (block.source !== undefined && state.taint !== null)
          finding.source = { id: state.taint.id, name: block.source, turn: taintTurn, ...at };
        step.finding = finding;
      }
      steps.push(step);
      own.push(step);
      if (result?.subRun !== undefined) {
        const run = { ...trajectory, ...result.subRun, agents: result.subRun.agents, conversations: undefined };
        const inside = at.inside === undefined ? call.id : `${at.inside} > ${call.id}`;
        steps.push(...auditConversation(run, declarations, { ...at, inside }));
      }
      return {
        id: call.id,
        name: call.name,
        allowed,
        succeeded: allowed && result?.outcome === 'ok',
        toolWrote: allowed && result?.outcome === 'error' && result.errorClass === undefined,
      };
    });
    const before = state.taint;
    state = applyOutcomes(state, outcomes, turn, tools, rules);
    if (before === null && state.taint !== null) {
      taintTurn = turn;
      const source = own.find((step) => step.id === state.taint!.id);
      if (source !== undefined) source.taints = true;
    }
  }
  return steps;
}

/**
 * The provenance of the conversation as the model saw it when it made turn `turn`'s calls, built on
 * first use, as a live run builds it: the system prompt of the agent that made the turn, the
 * conversation before the turn, and the turn's own response (its server tools' results among it).
 * A tool the declarations do not name is a known tool that is not untrusted, as the audit's guard
 * treats it: its successful results are trusted text. In a run with handoffs, the agent in charge
 * knows only the tools it was offered, as in a live run.
 */
function lazyProvenance(trajectory: Trajectory, turn: number, tools: ReadonlyMap<string, ToolFacts>): () => Provenance {
  let built: Provenance | undefined;
  return () => {
    if (built !== undefined) return built;
    const recorded = trajectory.turns[turn - 1]!;
    const messages: Message[] = conversationBefore(trajectory, turn);
    const content = sentBack({
      stop_reason: recorded.response.stopReason,
      content: recorded.response.content.map(fromRecordedBlock),
    });
    if (content !== undefined) messages.push({ role: 'assistant', content });
    const inCharge = (recorded.agent === undefined ? undefined : trajectory.agents?.[recorded.agent]) ?? trajectory;
    // After a handoff, the agent in charge knows only its own tools: another's result is unattributed.
    const known = trajectory.agents === undefined ? undefined : new Set(inCharge.tools.map((tool) => tool.name));
    const toolOf = (name: string): ProvenanceTool | undefined => {
      if (known !== undefined && !known.has(name)) return undefined;
      return tools.get(name) ?? { untrusted: false, privileged: false };
    };
    built = provenanceOf({ system: inCharge.request.system, messages }, toolOf, defaultServerToolUntrusted);
    return built;
  };
}
