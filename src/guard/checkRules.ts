import { describeValue } from '../json/describeValue.js';
import type { Rule } from './rules.js';
import { toolsNamedBy } from './rules.js';
import { LegateError } from '../errors/LegateError.js';

/** An agent's rules name a tool it does not have: the contract would silently never apply. */
export class RuleConfigurationError extends LegateError {
  readonly code = 'invalid_rule';
  constructor(
    readonly tool: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Checks an agent's rules when it is constructed: every tool they name must be one of its
 * tools (a tool hidden by authorization is still one of its tools), and a limit must be a
 * whole number of at least 1.
 */
export function checkRules(agent: string, list: readonly Rule[], tools: readonly string[]): void {
  for (const rule of list) {
    for (const name of toolsNamedBy(rule)) {
      if (!tools.includes(name)) {
        throw new RuleConfigurationError(
          name,
          `Agent '${agent}': a ${rule.kind} rule names '${name}', which this agent has no tool for. Its tools ` +
            `are ${tools.map((t) => `'${t}'`).join(', ') || 'none'}.`,
        );
      }
    }
    const problem = rule.kind === 'limit' ? limitProblem(rule.maxCalls) : undefined;
    if (problem !== undefined) {
      throw new RuleConfigurationError(
        rule.tool,
        `Agent '${agent}': the limit on '${rule.tool}' ${problem}. ` +
          "To forbid a tool, leave it out of the agent's tools.",
      );
    }
  }
}

/** What is wrong with a limit's number of calls, or undefined when it is a whole number of at least 1. */
export function limitProblem(maxCalls: unknown): string | undefined {
  if (Number.isSafeInteger(maxCalls) && (maxCalls as number) >= 1) return undefined;
  return `must be a whole number of calls of at least 1, but it was ${describeValue(maxCalls)}`;
}

/**
 * What is wrong with the shape of one entry of an agent's rules, or undefined when it is a rule
 * (a kind the guard knows, with the tool names it needs). Rules from plain JavaScript or a JSON
 * config reach here untyped; a rule the guard cannot read must not be silently skipped.
 */
export function ruleShapeProblem(value: unknown): string | undefined {
  const kinds = ['require', 'terminal', 'limit'];
  if (typeof value !== 'object' || value === null || !kinds.includes((value as { kind?: unknown }).kind as string)) {
    return `must be a rule made with rules.require, rules.terminal or rules.limit, but it was ${describeValue(value)}`;
  }
  const rule = value as Record<string, unknown>;
  for (const key of rule.kind === 'require' ? ['tool', 'prerequisite'] : ['tool']) {
    if (typeof rule[key] !== 'string')
      return (
        `(a ${String(rule.kind)} rule) needs '${key}', the name of one of the agent's tools, but it was ` +
        `${describeValue(rule[key])}`
      );
  }
  return undefined;
}
