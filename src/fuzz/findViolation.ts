import { isAttempt } from '../guard/attempt.js';
import type { GuardRule } from '../guard/guardContext.js';
import type { AgentNode } from '../runtime/agentNode.js';
import type { AgentResult, ToolCall } from '../runtime/agentResult.js';
import { agentsReachableFrom } from '../runtime/agentGraph.js';
import { toolsNamedBy, type Rule } from '../guard/rules.js';
import type { AnyTool } from '../tools/tool.js';
import { serverToolUntrusted } from '../tools/serverTool.js';
import { provenanceOf } from '../guard/provenance/provenance.js';
import { untracedArgument } from '../guard/provenance/traceArguments.js';

/** A rule the run broke, located to the call that broke it. */
export interface Violation {
  call: ToolCall;
  rule: GuardRule;
  message: string;
}

/** What the run is held to, beyond what each agent declares of itself. */
export interface Oracle {
  /** Every tool the run can reach, by name. */
  tools: AnyTool[];
  /** Tools that must never run after taint. */
  privileged: ReadonlySet<string>;
  /** Rules every agent in charge must keep on top of its own, where it has every tool they name. */
  rules: readonly Rule[];
}

/** One call of a run, as the guard counted it towards a limit. */
interface CountedCall {
  call: ToolCall;
  /** The agent in charge when the call was made. */
  agent: AgentNode;
  /** Whether the call is an attempt of its tool ({@link isAttempt}). */
  attempt: boolean;
  /** The attempts of the call's tool name in the run so far, this call included. */
  count: number;
}

/**
 * The run's calls in order, each with the agent in charge of its turn and the running count of
 * attempts of its tool name, counted with the guard's own definition ({@link isAttempt}) over the
 * tools of the agent in charge. A call the guard let through is any but one it blocked; a call a
 * person refused (`approval`) was let through by the guard first. For a run that started afresh,
 * the last count of each name is the guard's `result.guard.attempts`.
 */
export function countAttempts(entry: AgentNode, result: AgentResult): CountedCall[] {
  const inCharge = agentsInCharge(entry);
  const counts = new Map<string, number>();
  return result.toolCalls.map((call) => {
    const agent = inCharge(result, call.turn);
    const allowed = call.outcome !== 'blocked' || call.rule === 'approval';
    const attempt = isAttempt({ name: call.name, allowed }, new Set(agent.tools.map((t) => t.name)));
    const count = (counts.get(call.name) ?? 0) + (attempt ? 1 : 0);
    counts.set(call.name, count);
    return { call, agent, attempt, count };
  });
}

/**
 * The first rule the run broke: a privileged tool ran after an untrusted tool's words (a success, or
 * an error result it returned) reached the model, a hidden tool ran, a tool ran before its
 * prerequisite succeeded or after a terminal tool did, or a call was an attempt over the limit the
 * agent in charge puts on its tool (counted as the guard counts).
 */
export function findViolation(entry: AgentNode, result: AgentResult, oracle: Oracle): Violation | undefined {
  const byName = new Map(oracle.tools.map((t) => [t.name, t]));
  const ran = (call: ToolCall) => call.outcome === 'ok' || call.outcome === 'error';
  const succeeded = result.toolCalls.filter((c) => c.outcome === 'ok');
  // What the model read in a tool's own words: its output, or an error result it returned (toolError).
  const read = result.toolCalls.filter((c) => c.outcome === 'ok' || c.error?.error === 'tool_error');
  const rulesOf = heldTo(oracle.rules);
  for (const { call, agent, attempt, count } of countAttempts(entry, result)) {
    const rules = rulesOf(agent);
    const overLimit = attempt ? limitViolation(call, rules, count) : undefined;
    if (!ran(call)) {
      if (overLimit !== undefined) return overLimit;
      continue;
    }
    if (
      oracle.privileged.has(call.name) &&
      read.some((c) => byName.get(c.name)?.untrusted === true && c.turn < call.turn) &&
      !tracedByProvenance(agent, result, call)
    ) {
      return {
        call,
        rule: 'taint',
        message: `privileged tool '${call.name}' ran (${call.id}) after untrusted content entered the conversation`,
      };
    }
    if (!agent.visibleTools().has(call.name))
      return { call, rule: 'authorization', message: `hidden tool '${call.name}' ran (${call.id})` };
    for (const rule of rules) {
      if (
        rule.kind === 'require' &&
        rule.tool === call.name &&
        !succeeded.some((c) => c.name === rule.prerequisite && c.turn < call.turn)
      ) {
        return {
          call,
          rule: 'prerequisite',
          message: `'${call.name}' ran (${call.id}) before its prerequisite '${rule.prerequisite}' succeeded`,
        };
      }
      if (rule.kind === 'terminal' && succeeded.some((c) => c.name === rule.tool && c.turn < call.turn)) {
        return {
          call,
          rule: 'terminal',
          message: `'${call.name}' ran (${call.id}) after terminal tool '${rule.tool}' succeeded`,
        };
      }
    }
    if (overLimit !== undefined) return overLimit;
  }
  return undefined;
}

/** A call counted as the `count`th attempt of its tool, when the agent in charge allows fewer. */
function limitViolation(call: ToolCall, rules: readonly Rule[], count: number): Violation | undefined {
  const limits = rules.flatMap((rule) => (rule.kind === 'limit' && rule.tool === call.name ? [rule.maxCalls] : []));
  const max = Math.min(...limits);
  if (count <= max) return undefined;
  return {
    call,
    rule: 'limit',
    message: `'${call.name}' was attempted ${count} time${count === 1 ? '' : 's'}, over its limit of ${max}`,
  };
}

/** The rules an agent in charge is held to: its own, and the extra ones that name only tools it has. */
function heldTo(extra: readonly Rule[]): (agent: AgentNode) => readonly Rule[] {
  const cache = new Map<AgentNode, readonly Rule[]>();
  return (agent) => {
    let rules = cache.get(agent);
    if (rules === undefined) {
      const names = new Set(agent.tools.map((t) => t.name));
      rules = [...agent.rules, ...extra.filter((rule) => toolsNamedBy(rule).every((name) => names.has(name)))];
      cache.set(agent, rules);
    }
    return rules;
  };
}

/** The agent in charge of a turn: among those the entry hands off to, by name (the nearest, where two share one). */
function agentsInCharge(entry: AgentNode): (result: AgentResult, turn: number) => AgentNode {
  const agents = new Map<string, AgentNode>();
  for (const agent of agentsReachableFrom(entry, 'handoffs'))
    if (!agents.has(agent.name)) agents.set(agent.name, agent);
  return (result, turn) => agents.get(result.agents[turn - 1] ?? entry.name) ?? entry;
}

/**
 * Whether a privileged call that ran in a tainted run was one argument provenance lets through: its tool (of the agent
 * in charge) declares `sensitive` arguments, and each of their values occurs in trusted text of the conversation as
 * the model had it when it made the call (docs/safety.md, "Argument provenance"). A tool without `sensitive` never is.
 */
function tracedByProvenance(agent: AgentNode, result: AgentResult, call: ToolCall): boolean {
  const tool = agent.tools.find((t) => t.name === call.name);
  if (tool?.sensitive === undefined) return false;
  const at = result.messages.findIndex(
    (message) =>
      message.role === 'assistant' &&
      typeof message.content !== 'string' &&
      message.content.some((block) => block.type === 'tool_use' && block.id === call.id),
  );
  if (at < 0) return false;
  const facts = new Map(agent.tools.map((t) => [t.name, t]));
  const servers = new Map(agent.serverTools.map((t) => [t.name, t]));
  const provenance = provenanceOf(
    { system: agent.system, messages: result.messages.slice(0, at + 1) },
    (name) => facts.get(name),
    (name) => serverToolUntrusted(servers, name),
  );
  return untracedArgument(call.input, tool.sensitive, provenance) === undefined;
}
