import { conversationsOf } from './conversationsOf.js';
import { samplesOf } from './samplesOf.js';
import type { RecordedOutcome, RecordedSubRun, RecordedTurn, Trajectory } from './types.js';
import { COMPLETE_STOP_REASONS } from './completeStopReasons.js';

/**
 * What became of a tool call, as `legate compare` compares it: `run` (the tool ran: `ok` or `error`), or the
 * outcome that kept it from running (`blocked`, `invalid`, `planned`, `suspended`, `incomplete`); `unanswered` for a
 * call the file holds no result for.
 */
export type ComparedDecision = 'run' | Exclude<RecordedOutcome, 'ok' | 'error'> | 'unanswered';

/** One tool call of a run, in the order the run made them (a sub-agent's calls right after the call that ran it). */
export interface ComparedCall {
  /** The tool, prefixed with the calls that led to it inside sub-agents: `ask_researcher › fetch_article`. */
  tool: string;
  decision: ComparedDecision;
  /** For a blocked call: the rule that blocked it. */
  rule?: string;
}

/** What `legate compare` reads of one sample of a file. */
interface RunFacts {
  calls: ComparedCall[];
  /** The run's stop reason (a file of several conversations: each one's, joined by `, `). */
  stopReason: string;
  /** The text of the last response (each conversation's, joined by a blank line). */
  finalText: string;
  /** Each transfer of the conversation: `triage → billing`. */
  handoffs: string[];
  /** The summary's usage totals. */
  tokens: Tokens;
  /**
   * Whether the sample passes, for the pass rates: its run ended complete (`end_turn`, `stop_sequence` or
   * `terminal`, every conversation of it) with no call blocked (sub-agents' calls included).
   */
  passed: boolean;
}

export interface Tokens {
  input: number;
  output: number;
}

/** A call whose decision differs between the two files, paired by tool and occurrence (see compareTrajectories). */
export interface DecisionChange {
  /** The pair of samples it was found in (1-based; 1 for files of one sample). */
  sample: number;
  tool: string;
  /** Which call of this tool it is, 1-based: the 2nd `send_email`. */
  occurrence: number;
  /** Absent for a call only the new file makes. */
  before?: ComparedCall;
  after: ComparedCall;
  /** `now blocked`: blocked in the new file and not in the old; `now run`: run in the new file and not in the old. */
  kind: 'now blocked' | 'now run' | 'changed';
}

/** Where two values of a column first differ, and in which pair of samples. */
export interface ColumnChange<T> {
  sample: number;
  before: T;
  after: T;
}

/** How the new file's run differs from the old one's. */
export interface TrajectoryComparison {
  /** The first difference in the tool sequence: the call's number (1-based) and the tool each file has there. */
  tools?: { sample: number; call: number; before?: string; after?: string };
  decisions: DecisionChange[];
  stopReason?: ColumnChange<string>;
  finalText?: ColumnChange<string>;
  handoffs?: ColumnChange<string[]>;
  /** The model that answered each (the files' `model:`). */
  model: { before: string; after: string };
  /** Usage totals per sample (the mean, for files of several samples): old, new. */
  tokens: { before: Tokens; after: Tokens };
  /** How many samples each file holds, and how many of them pass (see {@link RunFacts.passed}). */
  samples: { before: PassCount; after: PassCount };
  /**
   * True when nothing above changed but the tokens and the model: the same tools, decisions, stop reason, final text,
   * handoffs and pass counts.
   */
  same: boolean;
  /** True when a decision or a stop reason changed: what fails `legate compare`. */
  gated: boolean;
}

export interface PassCount {
  passed: number;
  total: number;
}

/**
 * Compares the run of a file recorded again (`after`) with the old one (`before`): its tool sequence (the first
 * difference), each call's decision, the stop reason, the final text, the handoffs, the tokens, and with samples how
 * many pass. Samples are paired in order (the first with the first); a sample only one file has counts in its pass
 * rate only. Calls are paired by tool and occurrence (the 2nd `send_email` of one with the 2nd of the other), so a
 * call added or dropped earlier in the run does not shift the pairs: a changed decision is a pair whose decisions
 * differ, or a call only the new file makes that is blocked (`now blocked`).
 */
export function compareTrajectories(before: Trajectory, after: Trajectory): TrajectoryComparison {
  const old = samplesOf(before).map(runFacts);
  const now = samplesOf(after).map(runFacts);
  const comparison: TrajectoryComparison = {
    decisions: [],
    model: { before: before.model, after: after.model },
    tokens: { before: meanTokens(old), after: meanTokens(now) },
    samples: { before: passCount(old), after: passCount(now) },
    same: true,
    gated: false,
  };
  for (let i = 0; i < Math.min(old.length, now.length); i++) comparePair(comparison, i + 1, old[i]!, now[i]!);
  const { samples } = comparison;
  comparison.gated = comparison.decisions.length > 0 || comparison.stopReason !== undefined;
  comparison.same =
    !comparison.gated &&
    comparison.tools === undefined &&
    comparison.finalText === undefined &&
    comparison.handoffs === undefined &&
    samples.before.passed === samples.after.passed &&
    samples.before.total === samples.after.total;
  return comparison;
}

/** Adds what differs between one pair of samples, where an earlier pair has not already shown that column differ. */
function comparePair(comparison: TrajectoryComparison, sample: number, old: RunFacts, now: RunFacts): void {
  const toolAt = firstToolDifference(old.calls, now.calls);
  if (comparison.tools === undefined && toolAt !== undefined) {
    comparison.tools = { sample, call: toolAt + 1 };
    if (old.calls[toolAt] !== undefined) comparison.tools.before = old.calls[toolAt].tool;
    if (now.calls[toolAt] !== undefined) comparison.tools.after = now.calls[toolAt].tool;
  }
  comparison.decisions.push(...decisionChanges(sample, old.calls, now.calls));
  if (comparison.stopReason === undefined && old.stopReason !== now.stopReason)
    comparison.stopReason = { sample, before: old.stopReason, after: now.stopReason };
  if (comparison.finalText === undefined && old.finalText !== now.finalText)
    comparison.finalText = { sample, before: old.finalText, after: now.finalText };
  if (comparison.handoffs === undefined && old.handoffs.join('\n') !== now.handoffs.join('\n'))
    comparison.handoffs = { sample, before: old.handoffs, after: now.handoffs };
}

function firstToolDifference(before: ComparedCall[], after: ComparedCall[]): number | undefined {
  for (let i = 0; i < Math.max(before.length, after.length); i++) if (before[i]?.tool !== after[i]?.tool) return i;
  return undefined;
}

/** The calls whose decisions differ, paired by tool and occurrence; and the new file's blocked calls it adds. */
function decisionChanges(sample: number, before: ComparedCall[], after: ComparedCall[]): DecisionChange[] {
  const old = byOccurrence(before);
  const changes: DecisionChange[] = [];
  for (const [key, { call, tool, occurrence }] of byOccurrence(after)) {
    const was = old.get(key)?.call;
    if (was?.decision === call.decision) continue;
    if (was === undefined && call.decision !== 'blocked') continue;
    const kind =
      call.decision === 'blocked' ? 'now blocked' : call.decision === 'run' ? 'now run' : ('changed' as const);
    changes.push({ sample, tool, occurrence, ...(was === undefined ? {} : { before: was }), after: call, kind });
  }
  return changes;
}

function byOccurrence(calls: ComparedCall[]): Map<string, { call: ComparedCall; tool: string; occurrence: number }> {
  const seen = new Map<string, number>();
  const keyed = new Map<string, { call: ComparedCall; tool: string; occurrence: number }>();
  for (const call of calls) {
    const occurrence = (seen.get(call.tool) ?? 0) + 1;
    seen.set(call.tool, occurrence);
    keyed.set(JSON.stringify([call.tool, occurrence]), { call, tool: call.tool, occurrence });
  }
  return keyed;
}

/** What compare reads of one sample: each of its conversations' calls, stop reason, text, handoffs and usage. */
function runFacts(sample: Trajectory): RunFacts {
  const conversations = conversationsOf(sample);
  const calls = conversations.flatMap((conversation) => callsOf(conversation.turns, ''));
  const stopReasons = conversations.map((conversation) => conversation.summary.stopReason);
  return {
    calls,
    stopReason: stopReasons.join(', '),
    finalText: conversations.map((conversation) => finalTextOf(conversation.turns)).join('\n\n'),
    handoffs: conversations.flatMap((c) => (c.summary.handoffs ?? []).map((h) => `${h.from} → ${h.to}`)),
    tokens: {
      input: conversations.reduce((sum, c) => sum + c.summary.usage.input, 0),
      output: conversations.reduce((sum, c) => sum + c.summary.usage.output, 0),
    },
    passed:
      stopReasons.every((reason) => COMPLETE_STOP_REASONS.includes(reason)) &&
      calls.every((call) => call.decision !== 'blocked'),
  };
}

/** A run's tool calls in order, each followed by the calls of the sub-agent it ran. */
function callsOf(turns: readonly RecordedTurn[], prefix: string): ComparedCall[] {
  const calls: ComparedCall[] = [];
  for (const turn of turns) {
    const results = new Map((turn.results ?? []).map((result) => [result.id, result]));
    for (const block of turn.response.content) {
      if (!('toolUse' in block)) continue;
      const tool = `${prefix}${block.toolUse.name}`;
      const result = results.get(block.toolUse.id);
      const call: ComparedCall = { tool, decision: result === undefined ? 'unanswered' : decisionOf(result.outcome) };
      if (result?.outcome === 'blocked' && result.rule !== undefined) call.rule = result.rule;
      calls.push(call);
      const subRun: RecordedSubRun | undefined = result?.subRun;
      if (subRun !== undefined) calls.push(...callsOf(subRun.turns, `${tool} › `));
    }
  }
  return calls;
}

function decisionOf(outcome: RecordedOutcome): ComparedDecision {
  return outcome === 'ok' || outcome === 'error' ? 'run' : outcome;
}

/** The text blocks of the run's last response, joined by a line break. */
function finalTextOf(turns: readonly RecordedTurn[]): string {
  const last = turns.at(-1);
  if (last === undefined) return '';
  return last.response.content.flatMap((block) => ('text' in block ? [block.text] : [])).join('\n');
}

function meanTokens(samples: readonly RunFacts[]): Tokens {
  const sum = (field: keyof Tokens) => samples.reduce((total, s) => total + s.tokens[field], 0);
  return { input: sum('input') / samples.length, output: sum('output') / samples.length };
}

function passCount(samples: readonly RunFacts[]): PassCount {
  return { passed: samples.filter((sample) => sample.passed).length, total: samples.length };
}
