import { resolve } from 'node:path';
import { AUDIT_OPTIONS, AUDIT_OPTIONS_HELP, auditFlags } from '../auditOptions.js';
import { boundaryAudit } from '../boundaryAudit.js';
import { parseOptions } from '../parseOptions.js';
import { loadFile } from '../fileProblem.js';
import type { CliIo } from '../io.js';
import { terminalText } from '../terminalText.js';
import { renderTimeline } from '../renderTimeline.js';

export const showHelp = `legate show <file...> [--untrusted tool] [--privileged tool] [--config file]
            [any other option of legate audit]

Prints a trajectory as a readable timeline: the input, each turn's text and tool calls with
their arguments and outcomes, and the usage. Coloured on a terminal (a non-empty NO_COLOR turns it off).
Given several files, shows each under a heading; a file that cannot be read gets one line
('file: problem') and the others are still shown. Exits 2 if any file is missing or could not
be read, or an option or the audit's declarations are unusable, else 1 if any is not a valid
trajectory, else 0.

A file recorded at the HTTP boundary (legate/intercept: another framework's tools, with no
postures) is shown audited as legate audit audits it: by the config's 'audit' section
(legate.config.*, found here or in a folder above, or --config) with the flags added to it.
Under each call the guard would have blocked, a line says so and, for taint, names the call
whose result tainted the run. legate's own files show what their guard decided. The flags:
${AUDIT_OPTIONS_HELP}`;

export async function show(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals: args } = parseOptions({ args: argv, allowPositionals: true, options: AUDIT_OPTIONS });
  if (args.length === 0) {
    io.err('legate show: give a trajectory file, e.g. legate show trajectories/tool-loop.yaml');
    return 2;
  }
  const flags = auditFlags(values);
  if (typeof flags === 'string') {
    io.err(`legate show: ${flags}. Run 'legate show --help' for its options.`);
    return 2;
  }
  const audit = boundaryAudit(flags, io.cwd);
  let failed = 0;
  let notRead = 0;
  for (const [i, file] of args.entries()) {
    const loaded = loadFile(resolve(io.cwd, file), file);
    if (!loaded.ok) {
      if (loaded.notRead) notRead++;
      else failed++;
      io.err(loaded.problem);
      continue;
    }
    const report = await audit(loaded.trajectory);
    if (args.length > 1) {
      if (i > 0) io.out('');
      io.out(io.paint('bold', `── ${terminalText(file)}`));
    }
    io.out(renderTimeline(loaded.trajectory, io.paint, report));
  }
  return notRead > 0 ? 2 : failed > 0 ? 1 : 0;
}
