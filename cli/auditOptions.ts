import { configShown, loadProject, rules, type AuditDeclarations, type Rule } from '../src/index.js';

/**
 * The options by which a command takes the audit's declarations (`legate audit`, and `legate view` and `legate show`
 * for files recorded at the HTTP boundary), in parseOptions' shape: each may be repeated or take a list.
 */
export const AUDIT_OPTIONS = {
  untrusted: { type: 'string', multiple: true },
  trusted: { type: 'string', multiple: true },
  privileged: { type: 'string', multiple: true },
  require: { type: 'string', multiple: true },
  limit: { type: 'string', multiple: true },
  sensitive: { type: 'string', multiple: true },
  'outside-authored': { type: 'string', multiple: true },
  'recorded-annotations': { type: 'boolean' },
  config: { type: 'string' },
} as const;

/** What each of {@link AUDIT_OPTIONS} means, for a command's help. */
export const AUDIT_OPTIONS_HELP = `  --untrusted fetch_page,web_search    tools whose results are not trusted
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
                                       destructive: privileged)`;

/** The values parseOptions gives for {@link AUDIT_OPTIONS}. */
interface AuditOptionValues {
  untrusted?: string[];
  trusted?: string[];
  privileged?: string[];
  require?: string[];
  limit?: string[];
  sensitive?: string[];
  'outside-authored'?: string[];
  'recorded-annotations'?: boolean;
  config?: string;
}

/** What the flags declare, read but not yet added to the config's `audit` section. */
export interface AuditFlags {
  untrusted: string[];
  trusted: string[];
  privileged: string[];
  rules: Rule[];
  sensitive: Record<string, string[]>;
  outsideAuthored: Record<string, string[]>;
  recordedAnnotations: boolean;
  /** The config named by --config, if one was. */
  config: string | undefined;
}

/** The declarations the flags give, or what is wrong with one (to be said with the command's name). */
export function auditFlags(values: AuditOptionValues): AuditFlags | string {
  const flagRules: Rule[] = [];
  for (const value of listOf(values.require)) {
    const [tool, prerequisite, ...rest] = value.split(':');
    if (!tool || !prerequisite || rest.length > 0) return `--require takes tool:prerequisite, not '${value}'`;
    flagRules.push(rules.require(tool, prerequisite));
  }
  for (const value of listOf(values.limit)) {
    const match = /^(.+)=(-?\d+)$/.exec(value);
    if (match === null) return `--limit takes tool=N (N a whole number), not '${value}'`;
    flagRules.push(rules.limit(match[1]!, Number(match[2])));
  }
  const sensitive = pathsByTool('--sensitive', 'send_money:recipient', values.sensitive);
  if (typeof sensitive === 'string') return sensitive;
  const outsideAuthored = pathsByTool('--outside-authored', 'list_transactions:[].subject', values['outside-authored']);
  if (typeof outsideAuthored === 'string') return outsideAuthored;
  return {
    untrusted: listOf(values.untrusted),
    trusted: listOf(values.trusted),
    privileged: listOf(values.privileged),
    rules: flagRules,
    sensitive,
    outsideAuthored,
    recordedAnnotations: values['recorded-annotations'] === true,
    config: values.config,
  };
}

/** The audit's declarations, resolved: the config's section with the flags added, and whether they declare anything. */
export interface ResolvedDeclarations {
  declarations: AuditDeclarations;
  declared: boolean;
  /** The config as a message names it (where to write an `audit` section). */
  configShown: string;
}

/**
 * The audit's declarations: the config's `audit` section (legate.config.* found from `cwd`, or --config), with the
 * flags' added to it. The one place a command resolves them.
 */
export async function auditDeclarations(flags: AuditFlags, cwd: string): Promise<ResolvedDeclarations> {
  const project = await loadProject({ cwd, ...(flags.config === undefined ? {} : { config: flags.config }) });
  const base: AuditDeclarations = project.config?.audit ?? {};
  const declarations: AuditDeclarations = {
    ...base,
    untrusted: [...(base.untrusted ?? []), ...flags.untrusted],
    trusted: [...(base.trusted ?? []), ...flags.trusted],
    privileged: [...(base.privileged ?? []), ...flags.privileged],
    rules: [...(base.rules ?? []), ...flags.rules],
    ...withPaths('sensitive', base.sensitive, flags.sensitive),
    ...withPaths('outsideAuthored', base.outsideAuthored, flags.outsideAuthored),
    ...(flags.recordedAnnotations ? { recordedAnnotations: true } : {}),
  };
  const declared =
    declarations.untrusted!.length + declarations.privileged!.length + declarations.rules!.length > 0 ||
    Object.keys(declarations.annotations ?? {}).length > 0 ||
    declarations.recordedAnnotations === true;
  return { declarations, declared, configShown: configShown(project, cwd) };
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
