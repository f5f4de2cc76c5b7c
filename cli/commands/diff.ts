import { resolve } from 'node:path';
import { parseOptions } from '../parseOptions.js';
import { diffTrajectories } from '../../src/index.js';
import { quoteValue } from '../../src/json/describeValue.js';
import { loadFile } from '../fileProblem.js';
import type { CliIo } from '../io.js';
import { terminalText } from '../terminalText.js';
import { defaultReport, reportTarget, writeOutput } from '../outputFile.js';
import { diffHtml } from '../../src/view/index.js';

/** Where `legate diff --html` writes its page when --out is not given. */
export const DEFAULT_DIFF_FILE = defaultReport('legate-diff.html');

export const diffHelp = `legate diff <a> <b> [--html [--out file|-]]

Shows how two trajectories differ, turn by turn: the first difference in the header, in each
turn and in the summary, with its path and both values. Recording times and versions are
ignored. Exits 0 when they are the same, 1 when they differ, 2 when either cannot be read
(each such file gets one line, 'file: problem').

--html writes the two runs side by side as one self-contained HTML page instead, the first
difference marked at its turn with both values side by side: to --out (default
${DEFAULT_DIFF_FILE} under the working folder, its folder made if need be; written whole or not
at all, its folder checked before anything is read), or to standard output with --out -. The
exit codes are the same.`;

export async function diff(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals: args } = parseOptions({
    args: argv,
    allowPositionals: true,
    options: { html: { type: 'boolean' }, out: { type: 'string' } },
  });
  if (args.length !== 2) {
    io.err('legate diff: give two trajectory files, e.g. legate diff old.yaml new.yaml');
    return 2;
  }
  if (values.out !== undefined && values.html !== true) {
    io.err(
      `legate diff: --out names the HTML page; add --html, e.g. legate diff --html a.yaml b.yaml --out ${values.out}`,
    );
    return 2;
  }
  const target = values.html === true ? reportTarget('--out', values.out, io.cwd, DEFAULT_DIFF_FILE) : undefined;
  if (typeof target === 'string') {
    io.err(`legate diff: ${target}`);
    return 2;
  }
  const [a, b] = args as [string, string];
  const [before, after] = [loadFile(resolve(io.cwd, a), a), loadFile(resolve(io.cwd, b), b)];
  if (!before.ok || !after.ok) {
    for (const loaded of [before, after]) if (!loaded.ok) io.err(loaded.problem);
    return 2;
  }
  const changes = diffTrajectories(before.trajectory, after.trajectory);
  if (target !== undefined) {
    const page = diffHtml({ file: a, trajectory: before.trajectory }, { file: b, trajectory: after.trajectory });
    const written = writeOutput('--out', 'page', target, page, io.out);
    if (typeof written === 'string') {
      io.err(`legate diff: ${written}`);
      return 2;
    }
    if (target.kind === 'file') {
      const found =
        changes.length === 0 ? 'the same run' : `${changes.length} difference${changes.length === 1 ? '' : 's'}`;
      io.out(`wrote ${target.shown} (${found}, ${Math.ceil(written / 1024)} KB)`);
    }
    return changes.length === 0 ? 0 : 1;
  }
  if (changes.length === 0) {
    io.out(`${terminalText(a)} and ${terminalText(b)} record the same run.`);
    return 0;
  }
  for (const change of changes) {
    const at = change.path === '' ? '(whole)' : terminalText(change.path);
    io.out(`${io.paint('bold', terminalText(change.where))} at ${at}`);
    io.out(`  ${io.paint('red', `- ${show(change.before)}`)}`);
    io.out(`  ${io.paint('green', `+ ${show(change.after)}`)}`);
  }
  io.out('');
  io.out(`${changes.length} difference${changes.length === 1 ? '' : 's'}`);
  return 1;
}

function show(value: unknown): string {
  return value === undefined ? '(absent)' : terminalText(quoteValue(value));
}
