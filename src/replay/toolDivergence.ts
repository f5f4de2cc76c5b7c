import { TrajectoryDivergenceError, type DivergenceContext } from './divergenceError.js';
import type { ReplayToolChange, ToolChange } from './toolChanges.js';

/** The request offers the tools differently from the recording: each change by tool name, in words. */
export function toolsOffered(
  context: DivergenceContext,
  turn: number,
  difference: { path: string; expected: unknown; actual: unknown },
  changes: readonly ToolChange[],
  postureChanges: readonly ReplayToolChange[],
): TrajectoryDivergenceError {
  const detail =
    `the request for turn ${turn} offers the tools differently from the recording:` +
    changes.map((change) => `\n  - ${change.message}`).join('') +
    likelyCause(postureChanges);
  const { path, expected, actual } = difference;
  return new TrajectoryDivergenceError('request', context.file, turn, path, expected, actual, context.rerecord, detail);
}

/**
 * The safety posture of tools changed since the recording (a flag, a policy, annotations...):
 * the recorded decisions were made under the old one. `expected` and `actual` map each changed
 * field (`read_email.untrusted`) to its value then and now.
 */
export function toolChanged(
  context: DivergenceContext,
  changes: readonly ReplayToolChange[],
): TrajectoryDivergenceError {
  const several = new Set(changes.map((change) => change.agent)).size > 1;
  const key = ({ agent, tool, field, path }: ReplayToolChange) =>
    `${several ? `${agent}: ` : ''}${tool}.${field}${path === undefined ? '' : `.${path}`}`;
  const detail =
    `the safety posture of the tools changed since the recording, which decided its calls under the old one:` +
    changes.map((change) => `\n  - ${change.message}${several ? ` (agent '${change.agent}')` : ''}`).join('');
  return new TrajectoryDivergenceError(
    'tool_changed',
    context.file,
    changes[0]?.turn ?? 1,
    undefined,
    Object.fromEntries(changes.map((change) => [key(change), change.expected])),
    Object.fromEntries(changes.map((change) => [key(change), change.actual])),
    context.rerecord,
    detail,
  );
}

/** Tools whose posture changed, as lines a divergence adds after its own words: they are its likely cause. */
export function likelyCause(changes: readonly ReplayToolChange[]): string {
  if (changes.length === 0) return '';
  return (
    "\n  The tools' safety posture also changed since the recording, a likely cause:" +
    changes.map((change) => `\n  - ${change.message}`).join('')
  );
}
