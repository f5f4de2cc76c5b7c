import { quoteValue } from '../json/describeValue.js';
import type { ComparedCall, DecisionChange, Tokens, TrajectoryComparison } from './compareTrajectories.js';
import type { ComparedFile, ComparisonSummary } from './comparisonSummary.js';

/**
 * The words of a comparison (`legate compare`'s table and its HTML page say the same): a row's cells, what changed
 * in it, line by line, and the summary.
 */

/** The table's columns, in order; `passed` only when a file holds several samples. */
export const COMPARISON_COLUMNS = [
  'file',
  'status',
  'tools',
  'decisions',
  'stop reason',
  'final text',
  'handoffs',
  'tokens in',
  'tokens out',
  'passed',
] as const;

export type ComparisonColumn = (typeof COMPARISON_COLUMNS)[number];

/** A row of the table, by column. */
export function comparisonCells(row: ComparedFile): Record<ComparisonColumn, string> {
  if (!('comparison' in row)) {
    const none = row.status === 'added' ? 'only in the new' : 'only in the old';
    return {
      file: row.file,
      status: row.status,
      tools: none,
      decisions: '',
      'stop reason': '',
      'final text': '',
      handoffs: '',
      'tokens in': '',
      'tokens out': '',
      passed: '',
    };
  }
  const c = row.comparison;
  const { before, after } = c.samples;
  return {
    file: row.file,
    status: row.status,
    tools: c.tools === undefined ? 'same' : `changed at call ${c.tools.call}`,
    decisions: c.decisions.length === 0 ? 'same' : decisionTally(c.decisions),
    'stop reason': c.stopReason === undefined ? 'same' : `${c.stopReason.before} → ${c.stopReason.after}`,
    'final text': c.finalText === undefined ? 'same' : 'changed',
    handoffs: c.handoffs === undefined ? 'same' : 'changed',
    'tokens in': tokensCell(c.tokens, 'input'),
    'tokens out': tokensCell(c.tokens, 'output'),
    passed: `${before.passed}/${before.total} | ${after.passed}/${after.total}`,
  };
}

/** `1 now blocked, 1 now run`. */
function decisionTally(changes: readonly DecisionChange[]): string {
  const counts = new Map<string, number>();
  for (const change of changes) counts.set(change.kind, (counts.get(change.kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${n} ${kind}`).join(', ');
}

/** `314 → 320 (×1.02)`: old, new and their ratio; one figure when they are equal. */
function tokensCell(tokens: { before: Tokens; after: Tokens }, field: keyof Tokens): string {
  const old = tokens.before[field];
  const now = tokens.after[field];
  if (old === now) return figure(old);
  return `${figure(old)} → ${figure(now)} (${ratio(old, now)})`;
}

/** New over old, `×1.02`; `×∞` from nothing. */
function ratio(old: number, now: number): string {
  return old === 0 ? '×∞' : `×${(now / old).toFixed(2)}`;
}

function figure(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/**
 * What makes a compared file `changed`, one line each (nothing for one that is the same; its tokens are in the row,
 * the models in the summary).
 */
export function comparisonDetails(c: TrajectoryComparison): string[] {
  const several = c.samples.before.total > 1 || c.samples.after.total > 1;
  const at = (sample: number) => (several ? `sample ${sample}: ` : '');
  const lines: string[] = [];
  if (c.tools !== undefined)
    lines.push(
      `${at(c.tools.sample)}tools: call ${c.tools.call} is ${c.tools.after ?? '(none)'}, was ` +
        `${c.tools.before ?? '(none)'}`,
    );
  for (const change of c.decisions) lines.push(`${at(change.sample)}${describeDecisionChange(change)}`);
  if (c.stopReason !== undefined)
    lines.push(`${at(c.stopReason.sample)}stop reason: ${c.stopReason.before} → ${c.stopReason.after}`);
  if (c.finalText !== undefined) lines.push(`${at(c.finalText.sample)}final text: ${textChange(c.finalText)}`);
  if (c.handoffs !== undefined)
    lines.push(`${at(c.handoffs.sample)}handoffs: ${listed(c.handoffs.before)} → ${listed(c.handoffs.after)}`);
  const { before, after } = c.samples;
  if (before.passed !== after.passed || before.total !== after.total)
    lines.push(`samples passed: ${before.passed}/${before.total} → ${after.passed}/${after.total}`);
  return lines;
}

/** Characters shown before the first difference of two texts. */
const CONTEXT = 12;

/** Two texts quoted from a little before where they first differ: `…"has shipped."` → `…"is on its way."`. */
function textChange({ before, after }: { before: string; after: string }): string {
  const chars = [[...before], [...after]] as const;
  let same = 0;
  while (same < chars[0].length && chars[0][same] === chars[1][same]) same++;
  const from = Math.max(0, same - CONTEXT);
  const quoted = (text: readonly string[]) => `${from > 0 ? '…' : ''}${quoteValue(text.slice(from).join(''))}`;
  return `${quoted(chars[0])} → ${quoted(chars[1])}`;
}

/** `send_payment (2nd call): now blocked (run → blocked by taint)`. */
function describeDecisionChange(change: DecisionChange): string {
  const was = change.before === undefined ? 'not made' : decisionWords(change.before);
  const call = `${change.tool} (${ordinal(change.occurrence)} call)`;
  return `${call}: ${change.kind} (${was} → ${decisionWords(change.after)})`;
}

function decisionWords(call: ComparedCall): string {
  return call.decision === 'blocked' && call.rule !== undefined ? `blocked by ${call.rule}` : call.decision;
}

function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th');
  return `${n}${suffix}`;
}

function listed(handoffs: readonly string[]): string {
  return handoffs.length === 0 ? '(none)' : handoffs.join(', ');
}

/**
 * The summary line: `21 files: 19 same, 2 changed (1 with a decision changed, 0 with a stop reason changed); tokens
 * in 4,321 → 4,400 (×1.02), out 800`, then the models where they differ: `; model claude-a → claude-b`.
 */
export function summaryLine(summary: ComparisonSummary): string {
  const counts = [
    `${summary.same} same`,
    `${summary.changed} changed (${summary.decisionsChanged} with a decision changed, ` +
      `${summary.stopReasonsChanged} with a stop reason changed)`,
    ...(summary.added > 0 ? [`${summary.added} only in the new`] : []),
    ...(summary.removed > 0 ? [`${summary.removed} only in the old`] : []),
  ];
  const files = `${summary.files} file${summary.files === 1 ? '' : 's'}`;
  const tokens = `tokens in ${tokensCell(summary.tokens, 'input')}, out ${tokensCell(summary.tokens, 'output')}`;
  const { before, after } = summary.models;
  const models = before.join(', ') === after.join(', ') ? '' : `; model ${before.join(', ')} → ${after.join(', ')}`;
  return `${files}: ${counts.join(', ')}; ${tokens}${models}`;
}
