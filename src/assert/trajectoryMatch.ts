import { UsageError } from '../errors/UsageError.js';
import { describeValue } from '../json/describeValue.js';
import { maximumMatching } from './bipartiteMatching.js';
import type { Equals } from './checkOutcome.js';
import { inputWithin } from './inputWithin.js';

/**
 * How `toMatchTrajectory` compares the order of the calls (each call is matched to one reference call, and no two to
 * the same): `strict`, the same number of calls and each matches the reference's at its place; `unordered`, the same
 * calls in any order (each call matched, each reference call matched); `subset`, every call made matches a reference
 * call (some reference calls may not have been made); `superset`, every reference call was made (other calls allowed).
 */
export const TRAJECTORY_ORDERS = ['strict', 'unordered', 'subset', 'superset'] as const;
export type TrajectoryOrder = (typeof TRAJECTORY_ORDERS)[number];

/**
 * How a call's input is compared with a reference call's: `exact`, equal (as `toEqual` compares under vitest: asymmetric
 * matchers work); `ignore`, any input; `subset`, the input sent is within the reference's (it sent nothing the
 * reference does not have); `superset`, the input sent holds the reference's (the reference names what matters).
 */
export const ARGS_MODES = ['exact', 'ignore', 'subset', 'superset'] as const;
export type ArgsMode = (typeof ARGS_MODES)[number];

/** A rule of your own: whether the input the run sent (`actual`) matches the reference's (`expected`). */
export type ArgsFunction = (actual: unknown, expected: unknown, tool: string) => boolean;
export type ArgsRule = ArgsMode | ArgsFunction;
/** One rule for every tool, or a rule by tool name with `default` for the tools not named (`exact` if not given). */
export type TrajectoryArgs = ArgsRule | { default?: ArgsRule; [tool: string]: ArgsRule | undefined };

export interface TrajectoryMatchOptions {
  /** `strict` if not given. */
  order?: TrajectoryOrder;
  /** `exact` if not given. */
  args?: TrajectoryArgs;
}

/** A call as compared: its tool and input. A reference call without an input matches any input of its tool. */
export interface ReferenceCall {
  tool: string;
  input?: unknown;
}

/** The options as read: the order, and the rule of each tool. */
export interface MatchRules {
  order: TrajectoryOrder;
  args: TrajectoryArgs;
}

const OPTION = 'invalid_trajectory_match_option';
const RULES_IN_WORDS =
  `one of ${ARGS_MODES.join(', ')}, a function (actual, expected, tool) => boolean, or an object of these by tool ` +
  'name ({ default?, send_email: ... })';

/** Reads `toMatchTrajectory`'s options, refusing what it cannot use with a `UsageError`. */
export function readMatchOptions(options: unknown): MatchRules {
  if (options === undefined) return { order: 'strict', args: 'exact' };
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new UsageError(
      OPTION,
      `toMatchTrajectory's options are { order?, args? }, but they were ${describeValue(options)}.`,
    );
  const record = options as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => key !== 'order' && key !== 'args');
  if (unknown.length > 0)
    throw new UsageError(
      OPTION,
      `toMatchTrajectory's options are { order?, args? }, but they had ${unknown.map((key) => `'${key}'`).join(', ')}` +
        `${unknown.includes('mode') ? ` (toHaveToolSequence's option: here the order is 'order')` : ''}.`,
    );
  const order = record.order ?? 'strict';
  if (!TRAJECTORY_ORDERS.includes(order as TrajectoryOrder))
    throw new UsageError(
      OPTION,
      `the trajectory order must be one of ${TRAJECTORY_ORDERS.join(', ')}, but it was ${describeValue(order)}.`,
    );
  const args = record.args ?? 'exact';
  if (!isRule(args)) {
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      throw new UsageError(OPTION, `the args rule must be ${RULES_IN_WORDS}, but it was ${describeValue(args)}.`);
    for (const [tool, rule] of Object.entries(args))
      if (!isRule(rule))
        throw new UsageError(
          OPTION,
          `the args rule for ${tool === 'default' ? 'the tools not named' : `'${tool}'`} must be one of ` +
            `${ARGS_MODES.join(', ')} or a function (actual, expected, tool) => boolean, but it was ${describeValue(rule)}.`,
        );
  }
  return { order: order as TrajectoryOrder, args: args as TrajectoryArgs };
}

function isRule(value: unknown): value is ArgsRule {
  return typeof value === 'function' || ARGS_MODES.includes(value as ArgsMode);
}

/** The rule for one tool: its own, else the `default`, else `exact`. */
function ruleFor(args: TrajectoryArgs, tool: string): ArgsRule {
  if (typeof args !== 'object') return args;
  return (Object.hasOwn(args, tool) ? args[tool] : undefined) ?? args.default ?? 'exact';
}

/** Whether a call the run made matches a reference call: the same tool, and its input by the tool's rule. */
function callMatches(actual: ReferenceCall, reference: ReferenceCall, rules: MatchRules, equals: Equals): boolean {
  if (actual.tool !== reference.tool) return false;
  if (reference.input === undefined) return true;
  const rule = ruleFor(rules.args, actual.tool);
  switch (rule) {
    case 'exact':
      return equals(actual.input, reference.input);
    case 'ignore':
      return true;
    case 'subset':
      return inputWithin(actual.input, reference.input, (sent, expected) => equals(sent, expected));
    case 'superset':
      return inputWithin(reference.input, actual.input, (expected, sent) => equals(sent, expected));
    default: {
      const verdict: unknown = rule(actual.input, reference.input, actual.tool);
      if (typeof verdict !== 'boolean')
        throw new UsageError(
          OPTION,
          `the args function for '${actual.tool}' must return true or false, but it returned ${describeValue(verdict)}.`,
        );
      return verdict;
    }
  }
}

/**
 * One row of the two sequences aligned: a reference call and the call matched to it, or one of them alone. `fails`
 * when the row breaks the order: a pair that differs (strict), a call not in the reference (strict, unordered, subset),
 * a reference call not made (strict, unordered, superset).
 */
export interface AlignedRow {
  reference?: number;
  actual?: number;
  matches: boolean;
  fails: boolean;
  /**
   * Why a call (or a reference call) was left without a partner, where any other could have been one (every order but
   * strict): the other side has no call of its tool, none of its tool matches its input, or each one that matches is
   * paired with another.
   */
  unpaired?: 'no_such_tool' | 'no_matching_input' | 'taken';
}

/**
 * Compares the calls a run made with a reference's, by the order and the args rules: the verdict, and the two
 * sequences aligned (strict by place, the other orders by a maximum matching).
 */
export function matchTrajectory(
  actual: readonly ReferenceCall[],
  reference: readonly ReferenceCall[],
  rules: MatchRules,
  equals: Equals,
): { pass: boolean; rows: AlignedRow[] } {
  const rows =
    rules.order === 'strict' ? byPlace(actual, reference, rules, equals) : byMatching(actual, reference, rules, equals);
  return { pass: rows.every((row) => !row.fails), rows };
}

function byPlace(
  actual: readonly ReferenceCall[],
  reference: readonly ReferenceCall[],
  rules: MatchRules,
  equals: Equals,
) {
  return Array.from({ length: Math.max(actual.length, reference.length) }, (_, i): AlignedRow => {
    const call = actual[i];
    const expected = reference[i];
    if (call === undefined) return { reference: i, matches: false, fails: true };
    if (expected === undefined) return { actual: i, matches: false, fails: true };
    const matches = callMatches(call, expected, rules, equals);
    return { reference: i, actual: i, matches, fails: !matches };
  });
}

function byMatching(
  actual: readonly ReferenceCall[],
  reference: readonly ReferenceCall[],
  rules: MatchRules,
  equals: Equals,
): AlignedRow[] {
  // Each pair is compared once (an args function is called at most once a pair).
  const edges = actual.map((call) =>
    reference.flatMap((expected, j) => (callMatches(call, expected, rules, equals) ? [j] : [])),
  );
  const partners = maximumMatching(edges, reference.length);
  const matched = new Set(partners.filter((j): j is number => j !== undefined));
  const unpaired = (tool: string, others: readonly ReferenceCall[], matching: number) =>
    !others.some((other) => other.tool === tool) ? 'no_such_tool' : matching === 0 ? 'no_matching_input' : 'taken';
  const rows = actual.map((call, i): AlignedRow => {
    const j = partners[i];
    if (j !== undefined) return { reference: j, actual: i, matches: true, fails: false };
    const why = unpaired(call.tool, reference, edges[i]!.length);
    return { actual: i, matches: false, fails: rules.order !== 'superset', unpaired: why };
  });
  reference.forEach((expected, j) => {
    if (matched.has(j)) return;
    const why = unpaired(expected.tool, actual, edges.filter((pairs) => pairs.includes(j)).length);
    rows.push({ reference: j, matches: false, fails: rules.order !== 'subset', unpaired: why });
  });
  return rows;
}
