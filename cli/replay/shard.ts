import { relative, resolve, sep } from 'node:path';

/** A slice `--shard i/n` asks for: the i-th of n (1 ≤ i ≤ n), vitest's convention. */
export interface Shard {
  index: number;
  count: number;
}

/** The shard `--shard` names, or the one-line problem with it (what was expected, what arrived, an example). */
export function parseShard(text: string): Shard | string {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const expected = `--shard must be i/n with whole numbers 1 ≤ i ≤ n (e.g. --shard 1/3), but it was '${text}'`;
  if (match === null) return `${expected}.`;
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (!Number.isSafeInteger(count) || count < 1) return `${expected}: n must be at least 1.`;
  if (!Number.isSafeInteger(index) || index < 1 || index > count) {
    return `${expected}: i must be between 1 and ${count}.`;
  }
  return { index, count };
}

/**
 * A file's place in the corpus, the same on every machine: its path relative to the project root, with `/`
 * separators (never an absolute path, never a time).
 */
export function corpusKey(file: string, cwd: string, root: string): string {
  return relative(root, resolve(cwd, file)).split(sep).join('/');
}

/**
 * The files of shard i/n, in their given order: the corpus keys sorted, cut into n contiguous runs whose sizes
 * differ by at most one. Every file is in exactly one shard; a shard may be empty when n exceeds the files.
 */
export function shardFiles<T>(files: readonly T[], keyOf: (file: T) => string, shard: Shard): T[] {
  const sorted = files.map((file, at) => ({ file, at, key: keyOf(file) }));
  sorted.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.at - b.at));
  const from = Math.floor(((shard.index - 1) * sorted.length) / shard.count);
  const to = Math.floor((shard.index * sorted.length) / shard.count);
  const picked = new Set(sorted.slice(from, to).map((entry) => entry.at));
  return files.filter((_, at) => picked.has(at));
}
