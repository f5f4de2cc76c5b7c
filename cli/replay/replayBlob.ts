import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Trajectory } from '../../src/index.js';
import { FileReadError, MAX_STRING_FILE_BYTES, readRegularFile } from '../../src/files/readRegularFile.js';
import { legateVersion } from '../../src/version.js';
import { oneLine } from '../describeError.js';
import type { Shard } from './shard.js';
import type { PathProblems, Verdict } from './fileVerdict.js';

/** What a blob says it is: its `format`, and the version of that format this legate writes and reads. */
const BLOB_FORMAT = 'legate-replay-blob';
const BLOB_VERSION = 2;

/** A file of the shard: its verdict, or not run (after --bail) with its trajectory when readable. */
export type BlobRecord =
  | { kind: 'replayed'; file: string; verdict: Verdict; seconds: number }
  | { kind: 'skipped'; file: string; trajectory?: Trajectory };

/** What a run knows of its corpus and options, which every shard of one corpus must share. */
export interface BlobRun {
  /** Every file of the corpus, as shown, in file order (before slicing): the order the merge prints. */
  corpus: string[];
  shard: Shard;
  /** The options that change verdicts (--bail, --match, --run-tools, --config, the mode). */
  settings: { bail: boolean; verb: string; match?: string; runTools?: string; config?: string };
  /** The paths given that could not be replayed, with their lines on standard error. */
  problems: PathProblems;
}

/** `legate replay --reporter blob`: one shard's results, to merge with the others' (--merge-reports). */
interface ReplayBlob extends BlobRun {
  format: typeof BLOB_FORMAT;
  version: number;
  legate: string;
  records: BlobRecord[];
  /**
   * SHA-256 of the rest (corpus, shard, options, problems and records, in that order): a blob edited after legate
   * wrote it, or cut short, no longer matches. Not a signature: whoever can write a blob can compute it again.
   */
  digest: string;
}

/** The blob's text: versioned JSON. */
export function blobText(run: BlobRun, records: BlobRecord[]): string {
  const content = { corpus: run.corpus, shard: run.shard, settings: run.settings, problems: run.problems, records };
  const blob: ReplayBlob = {
    format: BLOB_FORMAT,
    version: BLOB_VERSION,
    legate: legateVersion(),
    ...content,
    digest: digestOf(content),
  };
  return `${JSON.stringify(blob)}\n`;
}

/** The digest of a blob's content, as {@link blobText} writes it and a merge checks it. */
function digestOf(content: Pick<ReplayBlob, 'corpus' | 'shard' | 'settings' | 'problems' | 'records'>): string {
  const { corpus, shard, settings, problems, records } = content;
  const text = JSON.stringify({ corpus, shard, settings, problems, records });
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** A blob read, with the path it came from (as given). */
interface ReadBlob {
  shown: string;
  blob: ReplayBlob;
}

/**
 * The blobs under the paths (files as given, the *.json files of a folder), checked to be the shards of one run:
 * the same legate, corpus and options, each shard once, none missing. Otherwise the one-line problem.
 */
export function readBlobs(paths: string[], cwd: string): ReadBlob[] | string {
  const files: string[] = [];
  for (const path of paths) {
    const full = resolve(cwd, path);
    let folder: boolean;
    try {
      folder = statSync(full).isDirectory();
    } catch {
      return `--merge-reports: ${path} does not exist; give the blob files (--reporter blob) or their folder.`;
    }
    if (!folder) files.push(full);
    else {
      const inside = readdirSync(full).filter((name) => name.endsWith('.json'));
      if (inside.length === 0) return `--merge-reports: ${path} holds no blob files (*.json from --reporter blob).`;
      files.push(...inside.sort().map((name) => join(full, name)));
    }
  }
  const blobs: ReadBlob[] = [];
  for (const file of files) {
    const shown = relative(cwd, file) || file;
    const blob = readBlob(file, shown);
    if (typeof blob === 'string') return blob;
    blobs.push({ shown, blob });
  }
  return checkShards(blobs) ?? blobs;
}

function readBlob(file: string, shown: string): ReplayBlob | string {
  let value: unknown;
  try {
    // Through the reader every file goes through: a FIFO or a device (`/dev/zero`) is refused, never waited on.
    value = JSON.parse(readRegularFile(file, MAX_STRING_FILE_BYTES));
  } catch (error) {
    if (error instanceof FileReadError) return `--merge-reports: ${shown}: ${error.problem}`;
    const reason = oneLine((error as Error).message);
    return `--merge-reports: ${shown} could not be read as JSON: ${reason}; give the files --reporter blob wrote.`;
  }
  const blob = value as Partial<ReplayBlob> | null;
  if (typeof blob !== 'object' || blob === null || blob.format !== BLOB_FORMAT) {
    return (
      `--merge-reports: ${shown} is not a legate replay blob (no "format": "${BLOB_FORMAT}"); give the files ` +
      '--reporter blob wrote.'
    );
  }
  if (blob.version !== BLOB_VERSION || blob.legate !== legateVersion()) {
    return (
      `--merge-reports: ${shown} was written by legate ${String(blob.legate)} (blob format ${String(blob.version)}), ` +
      `this is legate ${legateVersion()} (format ${BLOB_VERSION}); replay every shard with the legate that merges.`
    );
  }
  const shard = blob.shard;
  const shapeOk =
    Array.isArray(blob.corpus) &&
    Array.isArray(blob.records) &&
    typeof shard === 'object' &&
    Number.isSafeInteger(shard?.index) &&
    Number.isSafeInteger(shard?.count) &&
    typeof blob.settings === 'object' &&
    typeof blob.problems === 'object';
  if (!shapeOk) return `--merge-reports: ${shown} is a blob with fields missing or damaged; write it again.`;
  if (blob.digest !== digestOf(blob as ReplayBlob)) {
    return (
      `--merge-reports: ${shown} was changed after legate wrote it (its digest does not match what it records); ` +
      'replay that shard again.'
    );
  }
  return blob as ReplayBlob;
}

/** The one-line problem when the blobs are not each shard of one run exactly once. */
function checkShards(blobs: ReadBlob[]): string | undefined {
  const [first, ...rest] = blobs;
  if (first === undefined) return '--merge-reports needs blob files (--reporter blob) or a folder of them.';
  const same = (a: ReplayBlob, b: ReplayBlob, key: 'corpus' | 'settings' | 'problems') =>
    JSON.stringify(a[key]) === JSON.stringify(b[key]);
  for (const { shown, blob } of rest) {
    const differs = (['corpus', 'problems'] as const).some((key) => !same(first.blob, blob, key));
    if (differs) {
      return (
        `--merge-reports: ${first.shown} and ${shown} replayed different corpora (files or paths differ); merge ` +
        'the shards of one run.'
      );
    }
    if (!same(first.blob, blob, 'settings')) {
      return (
        `--merge-reports: ${first.shown} and ${shown} were replayed with different options ` +
        `(${JSON.stringify(first.blob.settings)} and ${JSON.stringify(blob.settings)}); replay every shard alike.`
      );
    }
    if (blob.shard.count !== first.blob.shard.count) {
      const [one, other] = [label(first.blob.shard), label(blob.shard)];
      return `--merge-reports: ${first.shown} is shard ${one} but ${shown} is ${other}; merge the shards of one split.`;
    }
  }
  const seen = new Map<number, string>();
  for (const { shown, blob } of blobs) {
    const other = seen.get(blob.shard.index);
    if (other !== undefined) {
      return `--merge-reports: ${other} and ${shown} are both shard ${label(blob.shard)}; give each shard once.`;
    }
    seen.set(blob.shard.index, shown);
  }
  const count = first.blob.shard.count;
  const absent = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !seen.has(index));
  if (absent.length > 0) {
    const names = absent.map((index) => `${index}/${count}`).join(', ');
    const are = absent.length === 1 ? 'is' : 'are';
    const given = `${blobs.length} of ${count} given`;
    return `--merge-reports: shard ${names} ${are} missing (${given}); merge every shard's blob.`;
  }
  return undefined;
}

function label(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}
