import { effectiveTaintPolicy, type TaintPolicy } from '../tools/taintPolicy.js';
import { type GuardPostureName, POSTURE_FIELDS } from '../tools/postureFields.js';
import type { AnyTool } from '../tools/tool.js';
import type { GuardState } from './guardState.js';
import type { Provenance } from './provenance/provenance.js';
import type { Untraced } from './provenance/traceArguments.js';
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
  /**
   * What a tainted run does with a call of this tool, when privileged, that provenance does not clear
   * (already resolved; absent = block).
   */
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
  /**
   * The provenance of the conversation the calls were made in, built on first use (once per
   * response): only a tainted run's call of a tool with `sensitive` arguments asks for it. Without
   * it, such a call is decided by strict taint.
   */
  provenance?: () => Provenance;
}

/** A tool call as the guard sees it. */
export interface GuardedCall {
  id: string;
  name: string;
  /** The model's arguments, as it sent them: read only to trace sensitive arguments. */
  input?: unknown;
}

/** The rules a refusal can come from, in the order they are checked. */
export type GuardRule = 'terminal' | 'authorization' | 'taint' | 'prerequisite' | 'limit';

export interface Block {
  rule: GuardRule;
  /** What the model is told. */
  message: string;
  /** For taint: the untrusted tool whose content entered the conversation. */
  source?: string;
  /** For taint, when provenance decided: the sensitive argument traced to no trusted text. */
  untraced?: Untraced;
}

/**
 * A call the guard lets through only to a person: a tainted run's privileged call whose tool's
 * policy is `approve`. The later checks still apply; then it waits for a decision (`pending`).
 * Where nobody can be asked (an audit, an MCP session), it is refused with `block`.
 */
export interface Held {
  held: 'taint';
  /** The refusal it would have been under `block`. */
  block: Block;
  untraced?: Untraced;
}

/** The guard's decision on one call: refused, held for a person, or allowed (undefined). */
export type Decision = Block | Held | undefined;

export type Check = (call: GuardedCall, context: GuardContext) => Decision;

/** The posture fields the guard decides by, as the table marks them (`tools/postureFields.ts`). */
const GUARD_FIELDS = POSTURE_FIELDS.filter((field) => 'guard' in field).map((field) => field.name as GuardPostureName);
type Complete<Listed, All> = [Exclude<All, Listed>] extends [never] ? true : never;
const factsComplete: Complete<GuardPostureName, keyof ToolFacts> = true;
const factsInTable: Complete<keyof ToolFacts, GuardPostureName> = true;
void factsComplete;
void factsInTable;

/** A defined tool's facts: the posture fields the guard decides by, its taint policy resolved against its agent's. */
export function toolFacts(tool: Pick<AnyTool, GuardPostureName>, agentOnTaint: TaintPolicy | undefined): ToolFacts {
  const facts = Object.fromEntries(GUARD_FIELDS.map((name) => [name, tool[name]])) as unknown as ToolFacts;
  // Read only for a privileged tool (the taint check), so resolved for every tool alike.
  facts.onTaint = effectiveTaintPolicy(tool.onTaint, agentOnTaint);
  return facts;
}
