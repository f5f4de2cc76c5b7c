import { UsageError } from '../errors/UsageError.js';
import { limitProblem, ruleShapeProblem } from './checkRules.js';
import type { ToolFacts } from './guardContext.js';
import { toolsNamedBy, type Rule } from './rules.js';
import { describeValue } from '../json/describeValue.js';
import { fieldPathProblem } from '../json/fieldPath.js';
import type { McpToolAnnotations } from '../tools/annotations.js';
import { checkSensitiveArguments } from '../tools/provenanceOptions.js';
import { postureOf } from '../tools/hintedPosture.js';

/** MCP-style hints about one tool, as an MCP server declares them; a hint left out takes MCP's default. */
export type AuditHints = Partial<Pick<McpToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'openWorldHint'>>;

/**
 * What the audit of a trajectory is told about its tools: which read untrusted content, which have
 * real-world effects, and the contracts the guard would have enforced. Tools are named as the model
 * called them.
 */
export interface AuditDeclarations {
  /** Tools whose results are not trusted: once one succeeded, its content is in the conversation. */
  untrusted?: readonly string[];
  /**
   * Tools given hints (here or recorded) whose results are trusted all the same: hints never make a
   * tool trusted (see `annotations`), so this is how a declaration says a tool's content is.
   */
  trusted?: readonly string[];
  /** Tools with real-world effects: the guard refuses them once untrusted content is in the conversation. */
  privileged?: readonly string[];
  /**
   * MCP-style hints by tool name, read by legate's one rule (as `mcpTools` reads a server's): a tool
   * given hints is untrusted whatever they say (`openWorldHint: false` does not make content trusted;
   * name it in `trusted` for that), and privileged unless `readOnlyHint` is true, and always when
   * `destructiveHint` is true. A tool given no hints and no name is neither.
   */
  annotations?: Readonly<Record<string, AuditHints>>;
  /**
   * Also classify, by the same hints, each tool whose annotations the trajectory recorded (legate's
   * tools declare them; `annotations` given here win). Default false.
   */
  recordedAnnotations?: boolean;
  /** Prerequisites and limits (`rules.require`, `rules.limit`), as an agent's `rules` declares them. */
  rules?: readonly Rule[];
  /**
   * Argument paths by privileged tool, as its `sensitive` declares them: once untrusted content is
   * in the conversation, the tool's call is let through when every value at these paths is traced
   * to trusted text (provenance), as the guard decides it.
   */
  sensitive?: Readonly<Record<string, readonly string[]>>;
  /**
   * Output field paths by tool, as its `outsideAuthored` declares them: the fields outsiders write;
   * the rest of its JSON output is trusted text (`[]`: all of it). A tool not named: the whole output
   * of an untrusted or privileged tool (a write tool answers with the stored object, which others
   * wrote into), none of another tool's.
   */
  outsideAuthored?: Readonly<Record<string, readonly string[]>>;
}

const KEYS = [
  'untrusted',
  'trusted',
  'privileged',
  'annotations',
  'recordedAnnotations',
  'rules',
  'sensitive',
  'outsideAuthored',
];
/** The provenance declarations: what their paths name, and whether a tool's list may be empty. */
const PATHS = [
  { key: 'sensitive', what: 'argument', empty: false },
  { key: 'outsideAuthored', what: 'output field', empty: true },
] as const;
const HINTS = ['readOnlyHint', 'destructiveHint', 'openWorldHint'];

/** What makes a value not audit declarations, or undefined: their shape, and each rule as the guard reads it. */
export function auditDeclarationsProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `must be an object { ${KEYS.join(', ')} }, but it was ${describeValue(value)}`;
  const given = value as Record<string, unknown>;
  const unknown = Object.keys(given).find((key) => !KEYS.includes(key));
  if (unknown !== undefined) return `have no '${unknown}' (they take ${KEYS.join(', ')})`;
  for (const key of ['untrusted', 'trusted', 'privileged']) {
    const names = given[key];
    if (names !== undefined && !(Array.isArray(names) && names.every((n) => typeof n === 'string' && n !== '')))
      return `'${key}' must be a list of tool names, but it was ${describeValue(names)}`;
  }
  const both = ((given.trusted ?? []) as string[]).find((name) => ((given.untrusted ?? []) as string[]).includes(name));
  if (both !== undefined) return `name '${both}' both in 'untrusted' and in 'trusted': a tool is one or the other`;
  if (given.recordedAnnotations !== undefined && typeof given.recordedAnnotations !== 'boolean')
    return `'recordedAnnotations' must be true or false, but it was ${describeValue(given.recordedAnnotations)}`;
  const annotations = given.annotations;
  if (annotations !== undefined) {
    if (typeof annotations !== 'object' || annotations === null || Array.isArray(annotations))
      return `'annotations' must be an object of MCP hints by tool name, but it was ${describeValue(annotations)}`;
    for (const [tool, hints] of Object.entries(annotations)) {
      if (typeof hints !== 'object' || hints === null || Array.isArray(hints))
        return `'annotations.${tool}' must be an object of MCP hints, but it was ${describeValue(hints)}`;
      for (const [hint, flag] of Object.entries(hints)) {
        if (!HINTS.includes(hint)) return `'annotations.${tool}' has '${hint}', not one of ${HINTS.join(', ')}`;
        if (typeof flag !== 'boolean')
          return `'annotations.${tool}.${hint}' must be true or false, but it was ${describeValue(flag)}`;
      }
    }
  }
  const paths = pathsProblem(given);
  if (paths !== undefined) return paths;
  // With the recorded annotations asked for, whether a tool is privileged or untrusted is known per trajectory.
  if (given.recordedAnnotations !== true) {
    const flagged = flagsProblem(given as AuditDeclarations, (name) => classify(given as AuditDeclarations, name));
    if (flagged !== undefined) return flagged;
  }
  const list = given.rules;
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) return `'rules' must be a list of rules, but it was ${describeValue(list)}`;
  for (const [i, rule] of list.entries()) {
    const problem = ruleShapeProblem(rule);
    if (problem !== undefined) return `'rules[${i}]' ${problem}`;
    const limit = (rule as Rule).kind === 'limit' ? limitProblem((rule as { maxCalls?: unknown }).maxCalls) : undefined;
    if (limit !== undefined) return `'rules[${i}]' (the limit on '${(rule as Rule).tool}') ${limit}`;
    if ((rule as Rule).kind === 'terminal')
      return (
        `'rules[${i}]' is a terminal rule, which an audit does not check (a live run stops there, a recording ` +
        'goes on); declare prerequisites (rules.require) and limits (rules.limit)'
      );
  }
  return undefined;
}

/**
 * Checked declarations, as the guard reads them: the facts of every tool the trajectory offered or
 * the declarations name, and the rules. `recorded` holds the hints the trajectory recorded, used when
 * `recordedAnnotations` asks; `argumentsOf` the properties of a tool's input schema as it recorded
 * them, which each `sensitive` path must start with. Throws a {@link UsageError} (`invalid_audit_declarations`).
 */
export function resolveDeclarations(
  declarations: unknown,
  offered: readonly string[],
  recorded: Readonly<Record<string, AuditHints>> = {},
  argumentsOf: (tool: string) => Readonly<Record<string, unknown>> | undefined = () => undefined,
): { tools: Map<string, ToolFacts>; rules: readonly Rule[] } {
  const problem = auditDeclarationsProblem(declarations);
  if (problem !== undefined) throw new UsageError('invalid_audit_declarations', `The audit's declarations ${problem}.`);
  const given = declarations as AuditDeclarations;
  const list = given.rules ?? [];
  const hints: Record<string, AuditHints> = {
    ...(given.recordedAnnotations === true ? recorded : {}),
    ...given.annotations,
  };
  const names = new Set([
    ...offered,
    ...(given.untrusted ?? []),
    ...(given.trusted ?? []),
    ...(given.privileged ?? []),
    ...Object.keys(hints),
    ...list.flatMap(toolsNamedBy),
    ...Object.keys(given.sensitive ?? {}),
    ...Object.keys(given.outsideAuthored ?? {}),
  ]);
  const tools = new Map<string, ToolFacts>();
  for (const name of names) {
    const facts: ToolFacts = { ...classify(given, name, hints), policy: undefined };
    const sensitive = given.sensitive?.[name];
    if (sensitive !== undefined && Object.hasOwn(given.sensitive!, name)) facts.sensitive = sensitive;
    const outsideAuthored = given.outsideAuthored?.[name];
    if (outsideAuthored !== undefined && Object.hasOwn(given.outsideAuthored!, name))
      facts.outsideAuthored = outsideAuthored;
    tools.set(name, facts);
  }
  const flagged = flagsProblem(given, (name) => tools.get(name)!);
  if (flagged !== undefined) throw new UsageError('invalid_audit_declarations', `The audit's declarations ${flagged}.`);
  // A misspelt argument would reach no value, so trace nothing: checked as defineTool checks it, where known.
  for (const [tool, paths] of Object.entries(given.sensitive ?? {}))
    checkSensitiveArguments(paths, argumentsOf(tool), (_, message) => {
      throw new UsageError(
        'invalid_audit_declarations',
        `The audit's declarations 'sensitive.${tool}', checked against the arguments this trajectory recorded ` +
          `for '${tool}': ${message}`,
      );
    });
  return { tools, rules: list };
}

/**
 * Whether the declarations make a tool untrusted and privileged: by name, or by its MCP-style hints
 * read by legate's one rule ({@link postureOf}), the names marking what the hints cannot.
 */
function classify(
  given: AuditDeclarations,
  name: string,
  hints: Readonly<Record<string, AuditHints>> = given.annotations ?? {},
): { untrusted: boolean; privileged: boolean } {
  const named = (key: 'untrusted' | 'trusted' | 'privileged') => (given[key] ?? []).includes(name);
  const marks = {
    untrusted: named('untrusted') ? true : named('trusted') ? false : undefined,
    privileged: named('privileged') ? true : undefined,
  };
  if (!Object.hasOwn(hints, name))
    return { untrusted: marks.untrusted === true, privileged: marks.privileged === true };
  const { untrusted, privileged } = postureOf(hints[name], marks);
  return { untrusted, privileged };
}

/** The shape of `sensitive` and `outsideAuthored`: non-empty lists of valid field paths, by tool name. */
function pathsProblem(given: Record<string, unknown>): string | undefined {
  for (const { key, what, empty } of PATHS) {
    const byTool = given[key];
    if (byTool === undefined) continue;
    if (typeof byTool !== 'object' || byTool === null || Array.isArray(byTool))
      return (
        `'${key}' must be an object of ${what} paths by tool name, such as ` +
        `${key === 'sensitive' ? "{ send_money: ['recipient'] }" : "{ list_transactions: ['[].subject'] }"}, but it ` +
        `was ${describeValue(byTool)}`
      );
    for (const [tool, paths] of Object.entries(byTool)) {
      if (!Array.isArray(paths) || (!empty && paths.length === 0))
        return (
          `'${key}.${tool}' must be a ${empty ? '' : 'non-empty '}list of paths, ` +
          `but it was ${describeValue(paths)}`
        );
      for (const [i, path] of paths.entries()) {
        const problem = fieldPathProblem(path);
        if (problem !== undefined) return `'${key}.${tool}[${i}]': ${problem}`;
      }
    }
  }
  return undefined;
}

/**
 * `sensitive` on a tool that is not privileged, as `defineTool` refuses it (elsewhere it would
 * promise what no check keeps).
 */
function flagsProblem(
  given: AuditDeclarations,
  flagsOf: (name: string) => { untrusted: boolean; privileged: boolean },
): string | undefined {
  for (const tool of Object.keys(given.sensitive ?? {})) {
    if (flagsOf(tool).privileged) continue;
    return (
      `'sensitive' names '${tool}', which is not privileged by these declarations: name it in 'privileged' ` +
      "too (or give it MCP hints that make it privileged), or leave it out of 'sensitive'"
    );
  }
  return undefined;
}
