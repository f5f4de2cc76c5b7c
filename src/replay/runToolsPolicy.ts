import type { AnyTool } from '../tools/tool.js';
import { UsageError } from '../errors/UsageError.js';
import { describeValue } from '../json/describeValue.js';

/**
 * Which tools a replay runs for real: `safe` (the default) runs the tools without side effects
 * and serves the rest from the recording, `all` runs every tool, `none` serves every tool.
 */
export type RunToolsChoice = 'safe' | 'all' | 'none';

/** A choice for every tool, or one with named exceptions. */
export type RunTools =
  | RunToolsChoice
  | {
      /** Default `safe`. */
      default?: RunToolsChoice;
      /** Tools that run for real whatever the default says. */
      run?: readonly string[];
      /** Tools served from the recording whatever the default says. */
      serve?: readonly string[];
    };

export const DEFAULT_RUN_TOOLS: RunToolsChoice = 'safe';

/** Every choice, for a command line or a config to check against. */
export const RUN_TOOLS_CHOICES: readonly RunToolsChoice[] = ['safe', 'all', 'none'];

function isChoice(value: unknown): value is RunToolsChoice {
  return (RUN_TOOLS_CHOICES as readonly unknown[]).includes(value);
}

/**
 * A tool a replay must not run by default: privileged (it acts on the world), undone by another
 * tool (`compensatedBy`: an effect someone declared a way to undo), remote (its work is done by
 * another process, such as an MCP server, which a replay never contacts), or, where the tool
 * declares annotations, not read-only (MCP's reading of a tool that may write or destroy).
 */
function hasSideEffects(tool: AnyTool): boolean {
  return (
    tool.privileged || tool.compensatedBy !== undefined || tool.remote || (tool.annotated && !tool.annotations.readOnly)
  );
}

/**
 * Whether a replay serves a tool's recorded results instead of running it. `served` names tools
 * served whatever the policy says (a file's `serve:`: results the tool cannot reproduce).
 */
export function servedInReplay(policy: RunTools, tool: AnyTool, served: readonly string[] = []): boolean {
  if (served.includes(tool.name)) return true;
  const {
    default: chosen = DEFAULT_RUN_TOOLS,
    run = [],
    serve = [],
  } = typeof policy === 'string' ? { default: policy } : policy;
  if (serve.includes(tool.name)) return true;
  if (run.includes(tool.name)) return false;
  return chosen === 'none' || (chosen === 'safe' && hasSideEffects(tool));
}

/** The problem with a `runTools` value (after the words naming the setting), or undefined when it is one. */
export function runToolsProblem(value: unknown): string | undefined {
  const choices = RUN_TOOLS_CHOICES.map((c) => `'${c}'`).join(', ');
  if (typeof value === 'string')
    return isChoice(value) ? undefined : `must be one of ${choices}, but it was ${describeValue(value)}`;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `must be one of ${choices} or { default, run, serve }, but it was ${describeValue(value)}`;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!['default', 'run', 'serve'].includes(key))
      return `has no setting '${key}': it takes 'default', 'run' and 'serve'`;
  }
  if (record.default !== undefined && !isChoice(record.default))
    return `'default' must be one of ${choices}, but it was ${describeValue(record.default)}`;
  for (const key of ['run', 'serve'] as const) {
    const list = record[key];
    if (list !== undefined && !(Array.isArray(list) && list.every((name) => typeof name === 'string')))
      return `'${key}' must be a list of tool names, but it was ${describeValue(list)}`;
  }
  const serve = (record.serve as string[] | undefined) ?? [];
  const both = ((record.run as string[] | undefined) ?? []).filter((name) => serve.includes(name));
  if (both.length > 0) return `names '${both[0]}' in both 'run' and 'serve': keep it in one`;
  return undefined;
}

/** The value itself, once checked; a UsageError naming `where` when it is not a `runTools` value. */
export function checkRunTools(value: unknown, where: string): RunTools {
  const problem = runToolsProblem(value);
  if (problem !== undefined) throw new UsageError('invalid_run_tools', `${where} ${problem}.`);
  return value as RunTools;
}
