import type { Tokens, TrajectoryComparison } from './compareTrajectories.js';

/**
 * One file of two corpora compared, paired by its path relative to each: in both (`same` or `changed`, with how),
 * or in only one (`added`: only the new corpus has it; `removed`: only the old).
 */
export type ComparedFile =
  | { file: string; status: 'same' | 'changed'; comparison: TrajectoryComparison }
  | { file: string; status: 'added' | 'removed' };

/** Two corpora compared, in numbers: what `legate compare` prints last, and decides its exit code by. */
export interface ComparisonSummary {
  files: number;
  same: number;
  changed: number;
  added: number;
  removed: number;
  /** Files in which a call's decision changed. */
  decisionsChanged: number;
  /** Files whose stop reason changed. */
  stopReasonsChanged: number;
  /** The usage totals of the files in both corpora (per sample, for files of several), old and new. */
  tokens: { before: Tokens; after: Tokens };
  /** The models that answered the files in both corpora (their `model:`), each side's sorted. */
  models: { before: string[]; after: string[] };
  /**
   * True when the new corpus fails the comparison: a decision or a stop reason changed, or a file is in only one of
   * the two (it could not be compared).
   */
  gated: boolean;
}

/** The numbers of a corpus comparison. */
export function summarizeComparison(files: readonly ComparedFile[]): ComparisonSummary {
  const count = (status: ComparedFile['status']) => files.filter((file) => file.status === status).length;
  const compared = files.flatMap((file) => ('comparison' in file ? [file.comparison] : []));
  const total = (side: 'before' | 'after', field: keyof Tokens) =>
    compared.reduce((sum, comparison) => sum + comparison.tokens[side][field], 0);
  const summary: ComparisonSummary = {
    files: files.length,
    same: count('same'),
    changed: count('changed'),
    added: count('added'),
    removed: count('removed'),
    decisionsChanged: compared.filter((comparison) => comparison.decisions.length > 0).length,
    stopReasonsChanged: compared.filter((comparison) => comparison.stopReason !== undefined).length,
    tokens: {
      before: { input: total('before', 'input'), output: total('before', 'output') },
      after: { input: total('after', 'input'), output: total('after', 'output') },
    },
    models: {
      before: [...new Set(compared.map((comparison) => comparison.model.before))].sort(),
      after: [...new Set(compared.map((comparison) => comparison.model.after))].sort(),
    },
    gated: false,
  };
  summary.gated = compared.some((comparison) => comparison.gated) || summary.added + summary.removed > 0;
  return summary;
}
