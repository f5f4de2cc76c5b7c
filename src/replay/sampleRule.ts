import { UsageError } from '../errors/UsageError.js';
import { describeValue } from '../json/describeValue.js';

/**
 * When a file of k samples passes: `all` of them (pass^k, the default, so nothing gets laxer by accident), at least
 * `atLeast` of them, or a share of at least `rate` (a number from 0 to 1).
 */
export type SampleRule = 'all' | { atLeast: number } | { rate: number };

export const DEFAULT_SAMPLE_RULE: SampleRule = 'all';

/** Whether `passed` samples out of `total` satisfy the rule. */
export function ruleHolds(rule: SampleRule, passed: number, total: number): boolean {
  if (rule === 'all') return passed === total;
  if ('atLeast' in rule) return passed >= rule.atLeast;
  return passed >= rule.rate * total;
}

/** The rule in words, for a verdict ("every sample", "at least 3 of 5", "at least 80% of 5"). */
export function describeRule(rule: SampleRule, total: number): string {
  if (rule === 'all') return `every sample (pass^${total})`;
  if ('atLeast' in rule) return `at least ${rule.atLeast} of ${total}`;
  return `at least ${Math.round(rule.rate * 1000) / 10}% of ${total}`;
}

/** The problem with a sample rule (after the words naming the setting), or undefined when it is one. */
export function sampleRuleProblem(value: unknown): string | undefined {
  const expected = "must be 'all', { atLeast: m } (a whole number of at least 1) or { rate: r } (0 < r <= 1)";
  if (value === 'all') return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `${expected}, but it was ${describeValue(value)}`;
  const keys = Object.keys(value);
  const record = value as Record<string, unknown>;
  if (keys.length !== 1 || (keys[0] !== 'atLeast' && keys[0] !== 'rate'))
    return `${expected}, but it had ${keys.length === 0 ? 'no key' : `the keys ${keys.join(', ')}`}`;
  if (keys[0] === 'atLeast') {
    const m = record.atLeast;
    if (typeof m === 'number' && Number.isInteger(m) && m >= 1) return undefined;
    return `'atLeast' must be a whole number of at least 1, but it was ${describeValue(m)}`;
  }
  const r = record.rate;
  if (typeof r === 'number' && r > 0 && r <= 1) return undefined;
  return `'rate' must be a number above 0 and at most 1 (0.8 for 80%), but it was ${describeValue(r)}`;
}

/** The rule itself, once checked; a UsageError naming `where` when it is not one. */
export function checkSampleRule(value: unknown, where: string): SampleRule {
  const problem = sampleRuleProblem(value);
  if (problem !== undefined) throw new UsageError('invalid_samples', `${where} ${problem}.`);
  return value as SampleRule;
}

/** The most samples one file records: each is a live run, and the file holds them all. */
const MAX_SAMPLES = 100;

/** The problem with a number of samples to record, or undefined when it is one (a whole number of at least 1). */
export function samplesProblem(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_SAMPLES) return undefined;
  return `must be a whole number from 1 to ${MAX_SAMPLES}, but it was ${describeValue(value)}`;
}

export function checkSamples(value: unknown, where: string): number {
  const problem = samplesProblem(value);
  if (problem !== undefined) throw new UsageError('invalid_samples', `${where} ${problem}.`);
  return value as number;
}
