import { resolve } from 'node:path';
import { AUDIT_OPTIONS, AUDIT_OPTIONS_HELP, auditFlags } from '../auditOptions.js';
import { boundaryAudit } from '../boundaryAudit.js';
import { loadFile, missingProblem } from '../fileProblem.js';
import { findTrajectories } from '../findTrajectories.js';
import type { CliIo } from '../io.js';
import { defaultReport, reportTarget } from '../outputFile.js';
import { PageOutput } from '../pageOutput.js';
import { parseOptions } from '../parseOptions.js';

/** Where `legate view` writes its page when --out is not given. */
export const DEFAULT_VIEW_FILE = defaultReport('legate-view.html');

export const viewHelp = `legate view <paths...> [--out file|-] [--title text] [--untrusted tool] [--privileged tool]
            [--config file] [any other option of legate audit]

Writes one self-contained HTML page of the trajectories under the paths (files as given,
folders searched for *.yaml): an index with a row per file (agent, model, stop reason, tool
calls, blocked, taint, usage) and a filter, then each run's timeline, agents as lanes, each
tool call's outcome in words, the taint path and approvals. No network: style and script are
inline. A file that is not a valid trajectory gets an index row with its one-line problem.
The files that did not pass come first. A page of many files (over about two million
characters of sections) keeps each file's section inert until the index or a link opens it.

--out names the page, written whole or not at all; its folder must exist, and it is checked
before any file is read. Without --out the page is ${DEFAULT_VIEW_FILE}, under the working
folder (the folder is made if need be). The page is written as it is made: a file's section
waits in a scratch file beside it, so memory grows by about a kilobyte a file, not by the
page. --out - writes the page to standard output (held in memory until then). Prints
'wrote <file> (<n> trajectories, <size> KB)'.

A file recorded at the HTTP boundary (legate/intercept: another framework's tools, with no
postures) is shown audited as legate audit audits it: by the config's 'audit' section
(legate.config.*, found here or in a folder above, or --config) with the flags added to it.
Each call the guard would have blocked is badged so, and one blocked by taint links to the
call whose result tainted the run. legate's own files show what their guard decided. The flags:
${AUDIT_OPTIONS_HELP}

Exit codes: 0 the page was written; 2 a path given is missing or could not be read (the page
is still written, with a row saying so), or the options are unusable, or the page could not
be written (one line says which and what to do).`;

export async function view(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions({
    args: argv,
    allowPositionals: true,
    options: { out: { type: 'string' }, title: { type: 'string' }, ...AUDIT_OPTIONS },
  });
  if (positionals.length === 0) {
    io.err('legate view: give trajectory files or folders, e.g. legate view trajectories/ --out report.html');
    return 2;
  }
  const target = reportTarget('--out', values.out, io.cwd, DEFAULT_VIEW_FILE);
  if (typeof target === 'string') {
    io.err(`legate view: ${target}`);
    return 2;
  }
  const flags = auditFlags(values);
  if (typeof flags === 'string') {
    io.err(`legate view: ${flags}. Run 'legate view --help' for its options.`);
    return 2;
  }
  const audit = boundaryAudit(flags, io.cwd);
  const { files, missing, unreadable } = findTrajectories(
    positionals.map((path) => resolve(io.cwd, path)),
    io.cwd,
  );
  let notRead = missing.length + unreadable.length;
  // Each file is read, added to the page and let go (see PageOutput).
  const page = new PageOutput('--out', 'page', target, values.title);
  try {
    for (const path of missing) {
      io.err(`legate view: ${missingProblem(path)}`);
      page.add({ file: path, trajectory: undefined, verdict: { status: 'missing', message: missingProblem(path) } });
    }
    for (const problem of unreadable) {
      io.err(`legate view: ${problem}`);
      const folder = problem.slice(0, problem.indexOf(': '));
      page.add({ file: folder, trajectory: undefined, verdict: { status: 'error', message: problem } });
    }
    for (const file of files) {
      const loaded = loadFile(resolve(io.cwd, file), file);
      if (loaded.ok) page.add({ file, trajectory: loaded.trajectory, audit: await audit(loaded.trajectory) });
      else {
        // A file that is not a trajectory is a finding the page shows; one that could not be read at all is bad input.
        if (loaded.notRead) {
          notRead++;
          io.err(`legate view: ${loaded.problem}`);
        }
        page.add({ file, trajectory: undefined, verdict: { status: 'error', message: loaded.problem } });
      }
    }
    const written = page.write(io.out);
    if (typeof written === 'string') {
      io.err(`legate view: ${written}`);
      return 2;
    }
    if (target.kind === 'file') {
      const count = `${files.length} trajector${files.length === 1 ? 'y' : 'ies'}`;
      io.out(`wrote ${target.shown} (${count}, ${Math.ceil(written / 1024)} KB)`);
    }
    return notRead > 0 ? 2 : 0;
  } finally {
    page.dispose();
  }
}
