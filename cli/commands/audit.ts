import { resolve } from 'node:path';
import { parseOptions } from '../parseOptions.js';
import {
  auditTrajectory,
  configShown,
  loadProject,
  rules,
  type AuditDeclarations,
  type Rule,
} from '../../src/index.js';
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
  --untrusted fetch_page,web_search    tools whose results are not trusted
  --trusted read_config                tools given hints whose results are trusted all the same (hints alone
                                       never make a tool trusted)
  --privileged send_payment            tools with real-world effects
  --require send_payment:lookup_invoice  a tool runs only after its prerequisite succeeded
  --limit send_email=2                 at most N calls of a tool in a run
  --sensitive send_money:recipient     a privileged tool's argument whose value, once untrusted content
                                       is in the conversation, must be traced to trusted text (provenance):
                                       the call is then let through
  --outside-authored list_transactions:[].subject
                                       an untrusted tool's output field outsiders write; the rest of its
                                       JSON output is trusted text
  --recorded-annotations               also classify the tools by the annotations the file recorded
                                       (untrusted whatever they say, unless --trusted; not read-only or
                                       destructive: privileged)

One block per file: '✓ file' when clean (with how many calls the guard would block were not
carried out in the recording anyway, if any), else '✗ file' with each finding and the timeline.
Exit codes: 0 every file is clean; 1 a file has an unsafe flow or is not a valid trajectory;
2 nothing is declared, a path is missing or could not be read, or an option or the config is
unusable (one line says which and what to do).`;

export async function audit(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions({
    args,
    allowPositionals: true,
    options: {
      untrusted: { type: 'string', multiple: true },
      trusted: { type: 'string', multiple: true },
      privileged: { type: 'string', multiple: true },
      require: { type: 'string', multiple: true },
      limit: { type: 'string', multiple: true },
      sensitive: { type: 'string', multiple: true },
      'outside-authored': { type: 'string', multiple: true },
      'recorded-annotations': { type: 'boolean' },
      config: { type: 'string' },
    },
  });
  if (positionals.length === 0) {
    io.err('legate audit: give trajectory files or folders, e.g. legate audit trajectories --untrusted fetch_page');
    return 2;
  }
  const flagRules: Rule[] = [];
  for (const value of listOf(values.require)) {
    const [tool, prerequisite, ...rest] = value.split(':');
    if (!tool || !prerequisite || rest.length > 0)
      return usage(io, `--require takes tool:prerequisite, not '${value}'`);
    flagRules.push(rules.require(tool, prerequisite));
  }
  for (const value of listOf(values.limit)) {
    const match = /^(.+)=(-?\d+)$/.exec(value);
    if (match === null) return usage(io, `--limit takes tool=N (N a whole number), not '${value}'`);
    flagRules.push(rules.limit(match[1]!, Number(match[2])));
  }
  const sensitive = pathsByTool('--sensitive', 'send_money:recipient', values.sensitive);
  if (typeof sensitive === 'string') return usage(io, sensitive);
  const outsideAuthored = pathsByTool('--outside-authored', 'list_transactions:[].subject', values['outside-authored']);
  if (typeof outsideAuthored === 'string') return usage(io, outsideAuthored);
  const project = await loadProject({ cwd: io.cwd, ...(values.config === undefined ? {} : { config: values.config }) });
  const base: AuditDeclarations = project.config?.audit ?? {};
  const declarations: AuditDeclarations = {
    ...base,
    untrusted: [...(base.untrusted ?? []), ...listOf(values.untrusted)],
    trusted: [...(base.trusted ?? []), ...listOf(values.trusted)],
    privileged: [...(base.privileged ?? []), ...listOf(values.privileged)],
    rules: [...(base.rules ?? []), ...flagRules],
    ...withPaths('sensitive', base.sensitive, sensitive),
    ...withPaths('outsideAuthored', base.outsideAuthored, outsideAuthored),
    ...(values['recorded-annotations'] === true ? { recordedAnnotations: true } : {}),
  };
  const declared =
    declarations.untrusted!.length + declarations.privileged!.length + declarations.rules!.length > 0 ||
    Object.keys(declarations.annotations ?? {}).length > 0 ||
    declarations.recordedAnnotations === true;
  if (!declared)
    return usage(
      io,
      'nothing is declared to audit against: name tools with --untrusted and --privileged (or rules with ' +
        `--require, --limit), or write an 'audit' section in ${configShown(project, io.cwd)}`,
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

/** The `tool:path` values of a repeated option, paths by tool, or what is wrong with one. */
function pathsByTool(flag: string, example: string, values: string[] | undefined): Record<string, string[]> | string {
  const byTool: Record<string, string[]> = {};
  for (const value of listOf(values)) {
    const colon = value.indexOf(':');
    const tool = value.slice(0, colon);
    const path = value.slice(colon + 1);
    if (colon < 1 || path === '') return `${flag} takes tool:path (such as ${example}), not '${value}'`;
    byTool[tool] = [...(Object.hasOwn(byTool, tool) ? byTool[tool]! : []), path];
  }
  return byTool;
}

/** The config's paths by tool with the flags' added (each path once), or nothing when neither gives any. */
function withPaths(
  key: 'sensitive' | 'outsideAuthored',
  base: AuditDeclarations[typeof key],
  flags: Record<string, string[]>,
): Pick<AuditDeclarations, typeof key> {
  // The config's value goes on as it is when no flag adds to it: the audit checks its shape.
  if (Object.keys(flags).length === 0) return base === undefined ? {} : { [key]: base };
  const merged: Record<string, string[]> = {};
  for (const [tool, paths] of [...Object.entries(base ?? {}), ...Object.entries(flags)])
    merged[tool] = [...new Set([...(Object.hasOwn(merged, tool) ? merged[tool]! : []), ...paths])];
  return { [key]: merged };
}

/** A repeated option's values, each maybe a comma-separated list. */
function listOf(values: string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((value) => value.split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '');
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
