import { statSync } from 'node:fs';
import { basename, relative, resolve } from 'node:path';
import { compareTrajectories, COMPLETE_STOP_REASONS, summarizeComparison, type ComparedFile } from '../../src/index.js';
import {
  COMPARISON_COLUMNS,
  compareHtml,
  comparisonCells,
  comparisonDetails,
  summaryLine,
  type ComparisonColumn,
} from '../../src/view/index.js';
import { loadFile, missingProblem } from '../fileProblem.js';
import { findTrajectories } from '../findTrajectories.js';
import type { CliIo } from '../io.js';
import { defaultReport, reportTarget, writeOutput } from '../outputFile.js';
import { parseOptions } from '../parseOptions.js';
import { terminalText } from '../terminalText.js';

/** Where `legate compare --html` writes its page when --out is not given. */
export const DEFAULT_COMPARE_FILE = defaultReport('legate-compare.html');

export const compareHelp = `legate compare <old> <new> [--html [--out file|-]]

Compares two corpora of trajectories, such as a folder and the same folder recorded again by
legate rerecord with another model: files are paired by their path relative to each folder (or
give two files). One row per file: the tool sequence (same, or changed at call n), the calls
whose decision changed (now blocked, now run), the stop reason, the final text, the handoffs,
tokens in and out (old → new, and new/old), and for files of several samples how many passed
in each (3/5 | 5/5: a sample passes when it ended ${COMPLETE_STOP_REASONS.join(', ')}
with no call blocked). What changed in each file follows, then a summary line.

Exit codes: 0 no decision and no stop reason changed; 1 a call's decision or a file's stop reason
changed, or a file is in only one of the two (so a CI job can gate a model upgrade on it); 2 a
path is missing or a file cannot be read as a trajectory (one line each; the other files are
still compared).

--html writes the same table as one self-contained HTML page instead: to --out (default
${DEFAULT_COMPARE_FILE} under the working folder, its folder made if need be), or to standard
output with --out -. The exit codes are the same.`;

export async function compare(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals: args } = parseOptions({
    args: argv,
    allowPositionals: true,
    options: { html: { type: 'boolean' }, out: { type: 'string' } },
  });
  if (args.length !== 2) {
    io.err('legate compare: give the old and the new corpus, two folders or two files, e.g. legate compare old new');
    return 2;
  }
  if (values.out !== undefined && values.html !== true) {
    io.err(
      `legate compare: --out names the HTML page; add --html, e.g. legate compare --html old new --out ${values.out}`,
    );
    return 2;
  }
  const target = values.html === true ? reportTarget('--out', values.out, io.cwd, DEFAULT_COMPARE_FILE) : undefined;
  if (typeof target === 'string') {
    io.err(`legate compare: ${target}`);
    return 2;
  }
  const [oldPath, newPath] = args as [string, string];
  const pairs = pairFiles(oldPath, newPath, io.cwd);
  if (typeof pairs === 'string') {
    io.err(`legate compare: ${pairs}`);
    return 2;
  }
  const files: ComparedFile[] = [];
  const problems: string[] = [];
  for (const pair of pairs) {
    if (pair.before === undefined || pair.after === undefined) {
      files.push({ file: pair.file, status: pair.before === undefined ? 'added' : 'removed' });
      continue;
    }
    const before = loadFile(resolve(io.cwd, pair.before), pair.before);
    const after = loadFile(resolve(io.cwd, pair.after), pair.after);
    if (!before.ok || !after.ok) {
      for (const loaded of [before, after]) if (!loaded.ok) problems.push(loaded.problem);
      continue;
    }
    const comparison = compareTrajectories(before.trajectory, after.trajectory);
    files.push({ file: pair.file, status: comparison.same ? 'same' : 'changed', comparison });
  }
  // Each problem starts with the file, as legate diff says it.
  for (const problem of problems) io.err(problem);
  const summary = summarizeComparison(files);
  const verdict = problems.length > 0 ? 2 : summary.gated ? 1 : 0;
  if (target !== undefined) {
    const page = compareHtml({ before: oldPath, after: newPath }, files, summary);
    const written = writeOutput('--out', 'page', target, page, io.out);
    if (typeof written === 'string') {
      io.err(`legate compare: ${written}`);
      return 2;
    }
    if (target.kind === 'file')
      io.out(`wrote ${target.shown} (${summaryLine(summary)}, ${Math.ceil(written / 1024)} KB)`);
    return verdict;
  }
  printTable(files, io);
  io.out('');
  io.out(terminalText(summaryLine(summary)));
  return verdict;
}

/** A file of the comparison: its path relative to its corpus, and where each corpus has it (as given, from cwd). */
interface Pair {
  file: string;
  before?: string;
  after?: string;
}

/**
 * The files of the two corpora, paired by their path relative to each folder and sorted; two files are one pair.
 * The one-line problem where a path is missing, one is a folder and the other a file, or a folder holds no
 * trajectory file.
 */
function pairFiles(oldPath: string, newPath: string, cwd: string): Pair[] | string {
  const kinds = [oldPath, newPath].map((path) => kindOf(resolve(cwd, path)));
  const missing = [oldPath, newPath].filter((_, i) => kinds[i] === 'missing');
  if (missing.length > 0) return missing.map(missingProblem).join('; ');
  if (kinds[0] !== kinds[1])
    return (
      `give two folders or two files; ${terminalText(oldPath)} is a ${kinds[0]} and ${terminalText(newPath)} ` +
      `a ${kinds[1]}.`
    );
  if (kinds[0] === 'file') {
    const [a, b] = [basename(oldPath), basename(newPath)];
    return [{ file: a === b ? a : `${a} → ${b}`, before: oldPath, after: newPath }];
  }
  const found = [oldPath, newPath].map((folder) => {
    const { files, unreadable } = findTrajectories([resolve(cwd, folder)], cwd);
    return { folder, files, unreadable };
  });
  for (const { folder, files, unreadable } of found) {
    if (unreadable.length > 0) return unreadable.join('; ');
    if (files.length === 0)
      return `no trajectory files (*.yaml) under ${terminalText(folder)}; give a folder that holds some.`;
  }
  const pairs = new Map<string, Pair>();
  for (const [side, { folder, files }] of found.entries()) {
    const root = resolve(cwd, folder);
    for (const file of files) {
      const key = relative(root, resolve(cwd, file));
      const pair = pairs.get(key) ?? { file: key };
      if (side === 0) pair.before = file;
      else pair.after = file;
      pairs.set(key, pair);
    }
  }
  return [...pairs.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

function kindOf(path: string): 'folder' | 'file' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'file';
  } catch {
    return 'missing';
  }
}

/** The table, its columns padded to their widest cell; then what changed in each file that is not the same. */
function printTable(files: readonly ComparedFile[], io: CliIo): void {
  const withSamples = files.some(
    (row) => 'comparison' in row && (row.comparison.samples.before.total > 1 || row.comparison.samples.after.total > 1),
  );
  const columns = COMPARISON_COLUMNS.filter((column) => column !== 'passed' || withSamples);
  const rows = files.map((row) => {
    const cells = comparisonCells(row);
    return Object.fromEntries(columns.map((column) => [column, terminalText(cells[column])])) as Record<
      ComparisonColumn,
      string
    >;
  });
  const width = (column: ComparisonColumn) => Math.max(column.length, ...rows.map((row) => [...row[column]].length));
  const widths = columns.map(width);
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell + ' '.repeat(widths[i]! - [...cell].length)))
      .join('  ')
      .trimEnd();
  io.out(io.paint('bold', line([...columns])));
  for (const [i, row] of rows.entries()) {
    const text = line(columns.map((column) => row[column]));
    const status = files[i]!.status;
    io.out(status === 'same' ? text : io.paint(status === 'changed' ? 'yellow' : 'red', text));
  }
  for (const row of files) {
    if (row.status === 'same') continue;
    const details =
      'comparison' in row
        ? comparisonDetails(row.comparison)
        : [row.status === 'added' ? 'only in the new corpus' : 'only in the old corpus'];
    io.out('');
    io.out(`${terminalText(row.file)}:`);
    for (const detail of details) io.out(`  ${terminalText(detail)}`);
  }
}
