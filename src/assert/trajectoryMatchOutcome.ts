import { quoteValue } from '../json/describeValue.js';
import type { CheckOutcome, Equals } from './checkOutcome.js';
import { describeTimeline } from '../replay/describeTimeline.js';
import type { RunView } from '../replay/runView.js';
import {
  matchTrajectory,
  readMatchOptions,
  type AlignedRow,
  type ArgsRule,
  type MatchRules,
  type ReferenceCall,
} from './trajectoryMatch.js';
import { referenceCalls } from './trajectoryReference.js';

/**
 * The check of `toMatchTrajectory`: the run's calls against a reference's, by the options' order and args rules. Its
 * message says where they first part, shows the two sequences aligned (that place marked `>`), then the timeline.
 */
export function trajectoryMatchOutcome(
  view: RunView,
  reference: unknown,
  options: unknown,
  equals: Equals,
): CheckOutcome {
  const rules = readMatchOptions(options);
  const expected = referenceCalls(reference);
  const actual = view.calls.map((call): ReferenceCall => ({ tool: call.name, input: call.input }));
  const { pass, rows } = matchTrajectory(actual, expected, rules, equals);
  const what = `match the reference trajectory (${describeRules(rules)})`;
  const first = rows.find((row) => row.fails);
  return {
    pass,
    message: (negated) => {
      const but = negated || first === undefined ? 'but it did' : firstMismatch(first, actual, expected, rules);
      const table = alignment(rows, actual, expected, negated ? undefined : first);
      return `expected the run ${negated ? 'not ' : ''}to ${what}, ${but}.\n\n${table}\n\n${describeTimeline(view)}`;
    },
    // A diff by place says what differs only where places are compared and inputs are compared whole.
    ...(rules.order === 'strict' && rules.args === 'exact' ? { expected, actual } : {}),
  };
}

function describeRules({ order, args }: MatchRules): string {
  const rule = (r: ArgsRule) => (typeof r === 'function' ? 'by a function' : r);
  if (typeof args !== 'object') return `order ${order}, args ${rule(args)}`;
  const byTool = Object.entries(args).flatMap(([tool, r]) =>
    tool === 'default' || r === undefined ? [] : [`${rule(r)} for '${tool}'`],
  );
  return `order ${order}, args ${[rule(args.default ?? 'exact'), ...byTool].join(', ')}`;
}

const called = (call: ReferenceCall) =>
  `'${call.tool}' ${call.input === undefined ? '(any input)' : `with ${quoteValue(call.input)}`}`;
const calls = (n: number) => `${n} call${n === 1 ? '' : 's'}`;

/** Where the run first breaks the order, and why, in words. */
function firstMismatch(row: AlignedRow, actual: ReferenceCall[], expected: ReferenceCall[], rules: MatchRules): string {
  const call = row.actual === undefined ? undefined : actual[row.actual]!;
  const wanted = row.reference === undefined ? undefined : expected[row.reference]!;
  if (rules.order === 'strict') {
    const lengths = `the run made ${calls(actual.length)} and the reference has ${expected.length}`;
    if (call === undefined)
      return `but ${lengths}: the reference's call ${row.reference! + 1}, ${called(wanted!)}, was not made`;
    if (wanted === undefined)
      return `but ${lengths}: the run's call ${row.actual! + 1}, ${called(call)}, is not in the reference`;
    const sent = call.tool === wanted.tool ? `called it with ${quoteValue(call.input)}` : `called ${called(call)}`;
    return `but call ${row.actual! + 1} differs: the reference has ${called(wanted)}, the run ${sent}`;
  }
  if (call !== undefined) {
    const why = {
      no_such_tool: `the reference has no call of '${call.tool}'`,
      no_matching_input: `no reference call of '${call.tool}' matches its input`,
      taken: `each reference call of '${call.tool}' that matches it is paired with another call of the run`,
    }[row.unpaired!];
    return `but the run's call ${row.actual! + 1}, ${called(call)}, is not in the reference (${why})`;
  }
  const why = {
    no_such_tool: `the run never called '${wanted!.tool}'`,
    no_matching_input: `no call of '${wanted!.tool}' matched its input`,
    taken: `each call of '${wanted!.tool}' that matches it is paired with another reference call`,
  }[row.unpaired!];
  return `but the reference's call ${row.reference! + 1}, ${called(wanted!)}, was not made (${why})`;
}

/** The two sequences side by side, one row a pair: `=` a match, `≠` a pair that differs, `—` no partner. */
function alignment(rows: AlignedRow[], actual: ReferenceCall[], expected: ReferenceCall[], first?: AlignedRow): string {
  if (rows.length === 0) return 'Reference and run: no calls.';
  const cell = (calls: ReferenceCall[], i: number | undefined) => {
    if (i === undefined) return '—';
    const call = calls[i]!;
    return `${i + 1}. ${call.tool} ${call.input === undefined ? '(any input)' : quoteValue(call.input)}`;
  };
  const left = rows.map((row) => cell(expected, row.reference));
  const width = Math.max('reference'.length, ...left.map((text) => text.length));
  const lines = rows.map((row, k) => {
    const paired = row.reference !== undefined && row.actual !== undefined;
    const sign = row.matches ? '=' : paired ? '≠' : ' ';
    return `${row === first ? '>' : ' '} ${left[k]!.padEnd(width)}  ${sign}  ${cell(actual, row.actual)}`;
  });
  return [`  ${'reference'.padEnd(width)}     run`, ...lines].join('\n');
}
