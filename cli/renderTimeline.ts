import {
  conversationsOf,
  type AuditReport,
  type AuditStep,
  type RecordedBlock,
  type RecordedResult,
  type Trajectory,
} from '../src/index.js';
import { jsonText } from '../src/json/jsonText.js';
import { inputText } from '../src/trajectory/inputText.js';
import { describeUntraced, describeUsage, resultText } from '../src/view/index.js';
import type { Paint } from './style.js';
import { terminalLines, terminalText } from './terminalText.js';

const PREVIEW = 160;

const gutter = (label: string) => label.padEnd(9);

/**
 * A trajectory as a readable timeline: each turn's text and tool calls with outcomes, then totals;
 * a file recorded at the HTTP boundary with several conversations shows each under its own heading. Everything
 * from the file is escaped for a terminal: what is painted here, and every preview. With the report of its audit
 * (a file recorded at the HTTP boundary, audited by declarations), each call the guard would have blocked says so
 * under it, a call blocked by taint with the call whose result tainted the run, as a recorded guard's refusal does.
 */
export function renderTimeline(trajectory: Trajectory, terminalPaint: Paint, audit?: AuditReport): string {
  const paint: Paint = (style, text) => terminalPaint(style, terminalText(text));
  const lines: string[] = [];
  lines.push(
    `${paint('bold', trajectory.name)} ` +
      `${paint('dim', `· agent ${trajectory.agent} · ${trajectory.model} · recorded ${trajectory.recordedAt}`)}`,
  );
  if (trajectory.description !== undefined) lines.push(terminalPaint('dim', terminalLines(trajectory.description)));
  const conversations = conversationsOf(trajectory);
  conversations.forEach((conversation, i) => {
    if (conversations.length > 1)
      lines.push(paint('bold', `── conversation ${i + 1} of ${conversations.length} · ${conversation.model}`));
    const steps = (audit?.steps ?? []).filter((step) => (step.conversation ?? 1) === i + 1 && !step.inside);
    lines.push(...conversationLines(conversation, paint, new Map(steps.map((step) => [step.id, step]))));
  });
  return lines.join('\n');
}

/** One conversation: its input, each turn, its handoffs and its summary; `audited`: its calls' audit, by id. */
function conversationLines(trajectory: Trajectory, paint: Paint, audited: ReadonlyMap<string, AuditStep>): string[] {
  const lines: string[] = [];
  lines.push(`${paint('dim', gutter('user'))}${preview(inputText(trajectory.input))}`);
  trajectory.turns.forEach((turn, i) => {
    let label = gutter(`turn ${i + 1}`);
    if (turn.agent !== undefined) {
      lines.push(`${paint('cyan', label)}${paint('bold', `[${turn.agent}]`)}`);
      label = gutter('');
    }
    const emit = (text: string) => {
      lines.push(`${paint('cyan', label)}${text}`);
      label = gutter('');
    };
    for (const block of turn.response.content) {
      emit(describeBlock(block, paint));
      if ('toolUse' in block) {
        const decision = turn.approvals?.find((a) => a.id === block.toolUse.id);
        if (decision !== undefined) {
          const verdict = decision.approve ? '⏸ approved by a person' : '⏸ denied by a person';
          const reason = decision.reason === undefined ? '' : paint('dim', `: ${decision.reason}`);
          emit(`  ${paint('yellow', verdict)}${reason}`);
        }
        const result = turn.results?.find((r) => r.id === block.toolUse.id);
        if (result !== undefined) emit(`  ${describeResult(result, paint)}`);
        // The refusal's text is cut for the preview, often before its value: the facts are shown whole.
        if (result?.untraced !== undefined) emit(`    ${paint('red', describeUntraced(result.untraced))}`);
        const step = audited.get(block.toolUse.id);
        if (step !== undefined) for (const line of auditLines(step, paint)) emit(`  ${line}`);
      }
    }
    emit(paint('dim', `${turn.response.stopReason ?? 'no stop reason'} · ${describeUsage(turn.response.usage)}`));
  });
  const { summary } = trajectory;
  const taintSource = summary.tainted === true ? (summary.taintSource ?? 'an untrusted tool') : auditTaint(audited);
  for (const handoff of summary.handoffs ?? []) {
    const reason = handoff.reason === undefined ? '' : ` (${handoff.reason})`;
    lines.push(paint('dim', `handoff in turn ${handoff.turn}: ${handoff.from} → ${handoff.to}${reason}`));
  }
  const taint = taintSource === undefined ? '' : ` · tainted by ${taintSource}`;
  lines.push(
    paint(
      'bold',
      `${summary.stopReason} · ${summary.turns} turn${summary.turns === 1 ? '' : 's'} · ` +
        `${describeUsage(summary.usage)}${taint}`,
    ),
  );
  return lines;
}

/** What the audit says of a call: where untrusted content entered, or that the guard would have blocked it. */
function auditLines(step: AuditStep, paint: Paint): string[] {
  const lines: string[] = [];
  if (step.taints === true) lines.push(paint('yellow', '⚑ audit: untrusted content enters the conversation here'));
  const { finding } = step;
  if (finding === undefined) return lines;
  const source = finding.source;
  const why =
    finding.rule !== 'taint'
      ? `: ${preview(finding.message)}`
      : source === undefined
        ? ''
        : `, tainted by ${source.name} (${source.id}, turn ${source.turn})`;
  lines.push(`${paint('red', `✗ audit: the guard would have blocked it (${finding.rule})`)}${paint('dim', why)}`);
  if (finding.untraced !== undefined) lines.push(`  ${paint('red', describeUntraced(finding.untraced))}`);
  return lines;
}

/** The tool whose result the audit found tainted the conversation, if it did. */
function auditTaint(audited: ReadonlyMap<string, AuditStep>): string | undefined {
  return [...audited.values()].find((step) => step.taints === true)?.name;
}

function describeBlock(block: RecordedBlock, paint: Paint): string {
  if ('text' in block) return `assistant: ${preview(block.text)}`;
  if ('thinking' in block) return paint('dim', `thinking: ${preview(block.thinking)}`);
  if ('redactedThinking' in block) return paint('dim', 'thinking: (redacted)');
  if ('toolUse' in block)
    return `${paint('bold', `→ ${block.toolUse.name}`)} ${preview(previewJson(block.toolUse.input))}`;
  // A block legate does not type, by its type: `[web_search_tool_result]`, `[compaction]`.
  return paint('dim', `[${('block' in block ? block.block : block.server).type}]`);
}

function describeResult(result: RecordedResult, paint: Paint): string {
  const content = resultText(result.content);
  if (result.outcome === 'ok') return `${paint('green', '✓ ok')} ${preview(content)}`;
  const facts = [
    result.rule,
    result.source === undefined ? undefined : `source ${result.source}`,
    result.code,
    result.argument === undefined ? undefined : `argument ${result.argument}`,
    result.errorClass,
  ].filter((f) => f !== undefined);
  const colour = result.outcome === 'error' || result.outcome === 'blocked' ? 'red' : 'yellow';
  return (
    `${paint(colour, `✗ ${result.outcome}`)}${facts.length > 0 ? paint('dim', ` (${facts.join(', ')})`) : ''} ` +
    `${preview(content)}`
  );
}

/**
 * The start of a value's JSON text, enough for a preview: written without recursion, so a tool input of any depth
 * shows.
 */
function previewJson(value: unknown): string {
  return jsonText(value, { stopAfter: PREVIEW * 4 }) ?? 'undefined';
}

function preview(text: string): string {
  const flat = terminalText(text.replace(/\s+/g, ' ').trim());
  return flat.length <= PREVIEW ? flat : `${flat.slice(0, PREVIEW)}…`;
}
