import type { SampleRule } from '../src/index.js';

// The options of the verbs that record samples (`legate replay --record`, `legate rerecord`) and judge them.

/** The number of samples --samples asks each recording for, or the one-line problem with it. */
export function parseSamples(text: string): { value: number } | { problem: string } {
  const count = /^\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (Number.isSafeInteger(count) && count >= 1 && count <= 100) return { value: count };
  const problem = `--samples must be a whole number from 1 to 100 (e.g. --samples 5), but it was '${text}'.`;
  return { problem };
}

/** The rule --pass gives: `all`, a number of samples (at least that many), or a percentage; or the problem. */
export function parsePass(text: string): { value: SampleRule } | { problem: string } {
  const trimmed = text.trim();
  if (trimmed === 'all') return { value: 'all' };
  if (/^\d+$/.test(trimmed) && Number(trimmed) >= 1) return { value: { atLeast: Number(trimmed) } };
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(trimmed);
  const rate = percent === null ? Number.NaN : Number(percent[1]) / 100;
  if (rate > 0 && rate <= 1) return { value: { rate } };
  const problem =
    `--pass must be 'all', a number of samples that must pass (e.g. --pass 4), or a percentage above 0 and at ` +
    `most 100 (e.g. --pass 80%), but it was '${text}'.`;
  return { problem };
}
