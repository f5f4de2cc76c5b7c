import { resolve } from 'node:path';
import { parseOptions } from '../parseOptions.js';
import { auditTrajectory } from '../../src/index.js';
import { AUDIT_OPTIONS, AUDIT_OPTIONS_HELP, auditDeclarations, auditFlags } from '../auditOptions.js';
import { loadFile, missingProblem } from '../fileProblem.js';
import { findTrajectories } from '../findTrajectories.js';
import type { CliIo } from '../io.js';
import { terminalLines, terminalText } from '../terminalText.js';

export const auditHelp = `legate audit <paths...> [--untrusted tool] [--trusted tool] [--privileged tool]
             [--require tool:prerequisite] [--limit tool=N] [--sensitive tool:path] [--outside-authored tool:path]
             [--recorded-annotations] [--config file]

Audits every trajectory under the paths (files, or folders searched for .yaml files): reports
what legate's guard would have blocked had the declared tools and rules been in force, for any
recorded run, legate's own or one recorded from another agent: a privileged call made after an
untrusted tool's result entered the conversation (naming both calls, with their turns; for a
tool given --sensitive arguments, only when one of their values is not traced to trusted text,
named with where it was found), a call before its prerequisite succeeded, a call over its limit.

The declarations are the config's 'audit' section (legate.config.ts, found here or in a folder
above, or --config), with the flags added to it. Each flag may be repeated or take a list:
${AUDIT_OPTIONS_HELP}

One block per file: '✓ file' when clean (with how many calls the guard would block were not
carried out in the recording anyway, if any), else '✗ file' with each finding and the timeline.
Exit codes: 0 every file is clean; 1 a file has an unsafe flow or is not a valid trajectory;
2 nothing is declared, a path is missing or could not be read, or an option or the config is
unusable (one line says which and what to do).`;

export async function audit(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions({ args, allowPositionals: true, options: AUDIT_OPTIONS });
  if (positionals.length === 0) {
    io.err('legate audit: give trajectory files or folders, e.g. legate audit trajectories --untrusted fetch_page');
    return 2;
  }
  const flags = auditFlags(values);
  if (typeof flags === 'string') return usage(io, flags);
  const { declarations, declared, configShown } = await auditDeclarations(flags, io.cwd);
  if (!declared)
    return usage(
      io,
      'nothing is declared to audit against: name tools with --untrusted and --privileged (or rules with ' +
        `--require, --limit), or write an 'audit' section in ${configShown}`,
    );

  const { files, missing, unreadable } = findTrajectories(
    positionals.map((p) => resolve(io.cwd, p)),
    io.cwd,
  );
  // Every file is read and audited before anything is printed: declarations the audit refuses end the command
  // with one line (exit 2), not after some files were already reported.
  const verdicts = files.map((file) => {
    const loaded = loadFile(resolve(io.cwd, file), file);
    return { file, loaded, report: loaded.ok ? auditTrajectory(loaded.trajectory, declarations) : undefined };
  });
  for (const path of missing) io.err(missingProblem(path));
  for (const problem of unreadable) io.err(problem);
  let unsafe = 0;
  let invalid = 0;
  let notRead = 0;
  for (const { file, loaded, report } of verdicts) {
    if (!loaded.ok) {
      if (loaded.notRead) notRead++;
      else invalid++;
      io.err(loaded.problem);
    } else if (report!.clean) {
      const refused = report!.findings.length;
      const note = refused === 0 ? '' : ` (${refused} call${refused === 1 ? '' : 's'} the guard would block, not run)`;
      io.out(`${io.paint('green', '✓')} ${terminalText(file)}${note}`);
    } else {
      unsafe++;
      io.out(`${io.paint('red', '✗')} ${terminalText(file)}`);
      io.out(indent(terminalLines(report!.text)));
      io.out('');
    }
  }
  if (files.length > 0) {
    io.out('');
    const clean = files.length - unsafe - invalid - notRead;
    io.out(`${files.length} audited: ${clean} clean, ${unsafe} with an unsafe flow, ${invalid + notRead} unreadable`);
  }
  return notRead + missing.length + unreadable.length > 0 ? 2 : unsafe + invalid > 0 ? 1 : 0;
}

function usage(io: CliIo, problem: string): number {
  io.err(`legate audit: ${problem}. Run 'legate audit --help' for its options.`);
  return 2;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? '' : `  ${line}`))
    .join('\n');
}
