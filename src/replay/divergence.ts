import type { CallDecision } from '../runtime/replayReferee.js';
import { describeDecision } from './callDecision.js';
import { contrast, showValue } from '../trajectory/contrast.js';
import type { Difference } from '../json/firstDifference.js';
import type { MatchLevel } from '../trajectory/matchLevel.js';
import type { RecordedTool } from '../trajectory/types.js';
import { toolChanges, type ReplayToolChange } from './toolChanges.js';
import { TrajectoryDivergenceError, type DivergenceContext } from './divergenceError.js';
import { likelyCause, toolsOffered } from './toolDivergence.js';

export function requestDivergence(
  context: DivergenceContext,
  turn: number,
  path: string,
  expected: unknown,
  actual: unknown,
  /** Tools whose posture changed: a likely cause, said after the difference. */
  postureChanges: readonly ReplayToolChange[] = [],
): TrajectoryDivergenceError {
  const [shownExpected, shownActual] = contrast(expected, actual);
  const detail =
    `the request for turn ${turn} differs from the recording at ${path === '' ? 'the request' : path}.\n` +
    `  expected: ${shownExpected}\n` +
    `  actual:   ${shownActual}` +
    likelyCause(postureChanges);
  return new TrajectoryDivergenceError('request', context.file, turn, path, expected, actual, context.rerecord, detail);
}

/**
 * A request that differs from the recording at `difference` (`compareRequests`'), said by meaning
 * where it can be: a difference in the tools offered is said tool by tool, comparing the recorded
 * tools with today's as `describeTool` describes both (at `exact`, each change in what the model
 * saw: a description, a schema, a tool added, removed or moved; at the other levels, which compare
 * only names and order, the tools added, removed or moved). Anything else, by its path and values.
 */
export function requestDiffers(
  context: DivergenceContext,
  turn: number,
  difference: Difference,
  level: MatchLevel,
  /** Both sides' tools as `describeTool` describes them: asked for only where the difference is in the tools. */
  tools: () => { recorded: readonly RecordedTool[]; today: readonly RecordedTool[] },
  /** Tools whose posture changed: a likely cause, said after the difference. */
  postureChanges: readonly ReplayToolChange[] = [],
): TrajectoryDivergenceError {
  const { path, expected, actual } = difference;
  if (path === 'tools' || path.startsWith('tools[')) {
    const { recorded, today } = tools();
    const seen = toolChanges(recorded, today, 'seen').filter(
      (change) => level === 'exact' || change.field === 'tool' || change.field === 'order',
    );
    if (seen.length > 0) return toolsOffered(context, turn, difference, seen, postureChanges);
  }
  return requestDivergence(context, turn, path, expected, actual, postureChanges);
}

export function modelChanged(
  context: DivergenceContext,
  turn: number,
  expected: string,
  actual: string,
): TrajectoryDivergenceError {
  const detail =
    `the agent now asks for model '${actual}', but the recording was made with '${expected}'. A recording only ` +
    'replays against the model it was made with.';
  return new TrajectoryDivergenceError(
    'model_changed',
    context.file,
    turn,
    'model',
    expected,
    actual,
    context.rerecord,
    detail,
  );
}

export function extraCall(context: DivergenceContext, turn: number, recorded: number): TrajectoryDivergenceError {
  const responses = recorded === 1 ? 'response' : 'responses';
  const detail =
    `the run asked the model ${ordinal(turn)} time, but the recording holds ${recorded} ${responses}: ` +
    'the code under test now continues where the recorded run stopped.';
  return new TrajectoryDivergenceError(
    'extra_call',
    context.file,
    turn,
    undefined,
    recorded,
    turn,
    context.rerecord,
    detail,
  );
}

export function unusedTurns(
  context: DivergenceContext,
  calls: number,
  recorded: number,
  /** What to do instead of re-recording, where the likely cause is elsewhere. */
  advice?: string,
): TrajectoryDivergenceError {
  const unused = recorded - calls;
  const detail =
    `the run ended after ${calls} model call${calls === 1 ? '' : 's'}, but the recording holds ${recorded}: ` +
    `${unused} recorded turn${unused === 1 ? ' was' : 's were'} never asked for, so the code under test now ` +
    'stops sooner.';
  return new TrajectoryDivergenceError(
    'unused_turns',
    context.file,
    calls + 1,
    undefined,
    recorded,
    calls,
    context.rerecord,
    detail,
    advice,
  );
}

export function missingToolResult(
  context: DivergenceContext,
  turn: number,
  id: string,
  tool: string,
): TrajectoryDivergenceError {
  const detail =
    `turn ${turn} ran tool '${tool}' (${id}), which is served from the recording, but the recording has no ` +
    'result of running it for that call.';
  return new TrajectoryDivergenceError(
    'missing_tool_result',
    context.file,
    turn,
    undefined,
    'a recorded result',
    undefined,
    context.rerecord,
    detail,
  );
}

/**
 * Today's code decides a recorded call differently: said in words, before the call runs.
 * `expected` and `actual` are the two decisions as data; `cause` adds what changed since the
 * recording (e.g. a tool's flags), when that is known.
 */
export function decisionDivergence(
  context: DivergenceContext,
  turn: number,
  call: { id: string; name: string },
  /** What the file holds for the call: the recorded decision (none: never answered), or its demand to be blocked. */
  wanted: { recorded: CallDecision | undefined } | { mustBlock: { rule: string | undefined } },
  today: CallDecision,
  cause: readonly ReplayToolChange[] = [],
): TrajectoryDivergenceError {
  let was: string;
  let expected: unknown;
  if ('mustBlock' in wanted) {
    const { rule } = wanted.mustBlock;
    was = `must be blocked${rule === undefined ? '' : ` by rule '${rule}'`} (the file expects it)`;
    expected = { outcome: 'blocked', ...(rule === undefined ? {} : { rule }) };
  } else {
    was =
      wanted.recorded === undefined
        ? 'was never answered when recorded'
        : `${describeDecision(wanted.recorded, 'past')} when recorded`;
    expected = wanted.recorded;
  }
  const detail =
    `call ${call.id} ${call.name} (turn ${turn}) ${was}; today's code ${describeDecision(today, 'today')}. ` +
    'Nothing was run after this difference.' +
    likelyCause(cause);
  // A file's expectation is the point of the file (a fuzz finding): the agent needs fixing, not the file.
  const advice = 'mustBlock' in wanted ? FIX_THE_AGENT : undefined;
  return new TrajectoryDivergenceError(
    'decision',
    context.file,
    turn,
    undefined,
    expected,
    today,
    context.rerecord,
    detail,
    advice,
  );
}

/** The run ended differently from the recording: its stop reason, taint, handoffs or suspension. */
export function runFactsDiffer(
  context: DivergenceContext,
  turn: number,
  differences: readonly { fact: string; expected: unknown; actual: unknown }[],
): TrajectoryDivergenceError {
  const lines = differences.map((d) => `  ${d.fact}: recorded ${showValue(d.expected)}, today ${showValue(d.actual)}`);
  const detail = `the run ended differently from the recording:\n${lines.join('\n')}`;
  return new TrajectoryDivergenceError(
    'run_facts',
    context.file,
    turn,
    undefined,
    Object.fromEntries(differences.map((d) => [d.fact, d.expected])),
    Object.fromEntries(differences.map((d) => [d.fact, d.actual])),
    context.rerecord,
    detail,
  );
}

/** The remedy for a file whose expectation failed: the expectation is the point of the file. */
const FIX_THE_AGENT = 'The file demands the call be blocked: fix the agent, not the file.';

export function expectationFailed(
  context: DivergenceContext,
  turn: number,
  id: string,
  tool: string,
  rule: string | undefined,
  outcome: string,
): TrajectoryDivergenceError {
  const detail =
    `the recording expects call ${id} ('${tool}') to be blocked${rule === undefined ? '' : ` by rule '${rule}'`}, ` +
    `but today's code let it through (${outcome}).`;
  return new TrajectoryDivergenceError(
    'expectation',
    context.file,
    turn,
    undefined,
    `blocked${rule === undefined ? '' : ` (${rule})`}`,
    outcome,
    context.rerecord,
    detail,
    FIX_THE_AGENT,
  );
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `a ${n}${suffix}`;
}
