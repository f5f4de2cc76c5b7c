import { effectiveTaintPolicy, type TaintPolicy } from '../tools/taintPolicy.js';
import type { AnyTool } from '../tools/tool.js';
import type { GuardState } from './guardState.js';
import type { Rule } from './rules.js';
import type { ToolRecord } from './toolRecord.js';

/** What the guard needs to know about a tool: its safety flags. */
export interface ToolFacts {
  untrusted: boolean;
  privileged: boolean;
  policy: string | undefined;
  /** A privileged tool's arguments a tainted run must trace to trusted text; undefined = strict taint. */
  sensitive?: readonly string[];
  /** An untrusted tool's outside-authored output fields; undefined = its whole output. */
  outsideAuthored?: readonly string[];
  /** What a tainted run does with a call provenance does not clear (already resolved; absent = block). */
  onTaint?: TaintPolicy;
}

/** An agent's rules, indexed by tool for the checks. */
export interface CompiledRules {
  prerequisites: ReadonlyMap<string, readonly string[]>;
  terminal: ReadonlySet<string>;
  limits: ReadonlyMap<string, number>;
}

export function compileRules(list: readonly Rule[]): CompiledRules {
  const prerequisites = new Map<string, string[]>();
  const terminal = new Set<string>();
  const limits = new Map<string, number>();
  for (const rule of list) {
    if (rule.kind === 'require')
      prerequisites.set(rule.tool, [...(prerequisites.get(rule.tool) ?? []), rule.prerequisite]);
    else if (rule.kind === 'terminal') terminal.add(rule.tool);
    else limits.set(rule.tool, Math.min(rule.maxCalls, limits.get(rule.tool) ?? Infinity));
  }
  return { prerequisites, terminal, limits };
}

/** Everything one decision reads. The state is the run's as it was when the response arrived. */
export interface GuardContext {
  state: GuardState;
  rules: CompiledRules;
  tools: ReadonlyMap<string, ToolFacts>;
  /** The tools the model was shown (authorization applied). */
  visible: readonly string[];
  /** What earlier calls of the same response already claimed. */
  batch: { attempts: ToolRecord; terminalCall: string | undefined };
}

/** A tool call as the guard sees it. */
export interface GuardedCall {
  id: string;
  name: string;
}

/** The rules a refusal can come from, in the order they are checked. */
export type GuardRule = 'terminal' | 'authorization' | 'taint' | 'prerequisite' | 'limit';

export interface Block {
  rule: GuardRule;
  /** What the model is told. */
  message: string;
  /** For taint: the untrusted tool whose content entered the conversation. */
  source?: string;
}

export type Check = (call: GuardedCall, context: GuardContext) => Block | undefined;

/** A defined tool's facts, its policy on taint resolved against its agent's. */
export function toolFacts(
  tool: Pick<AnyTool, 'untrusted' | 'privileged' | 'policy' | 'sensitive' | 'outsideAuthored' | 'onTaint'>,
  agentOnTaint: TaintPolicy | undefined,
): ToolFacts {
  const facts: ToolFacts = { untrusted: tool.untrusted, privileged: tool.privileged, policy: tool.policy };
  if (tool.sensitive !== undefined) facts.sensitive = tool.sensitive;
  if (tool.outsideAuthored !== undefined) facts.outsideAuthored = tool.outsideAuthored;
  if (tool.privileged) facts.onTaint = effectiveTaintPolicy(tool.onTaint, agentOnTaint);
  return facts;
}
