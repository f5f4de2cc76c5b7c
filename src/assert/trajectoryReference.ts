import { resolve } from 'node:path';
import { UsageError } from '../errors/UsageError.js';
import { describeValue } from '../json/describeValue.js';
import type { AgentResult } from '../runtime/agentResult.js';
import { loadTrajectory } from '../trajectory/trajectoryFile.js';
import type { Trajectory } from '../trajectory/types.js';
import { isAgentResult, isTrajectory, viewOf } from '../replay/runView.js';
import type { ReferenceCall } from './trajectoryMatch.js';

/**
 * What `toMatchTrajectory` compares a run with: a list of `{ tool, input? }`, a loaded `Trajectory`, an `AgentResult`,
 * or the path of a trajectory file (read as `loadTrajectory` reads it).
 */
export type TrajectoryReference = readonly ReferenceCall[] | Trajectory | AgentResult | string;

const REFERENCE = 'invalid_trajectory_reference';
const KINDS =
  'a list of { tool, input? }, a Trajectory (loadTrajectory), an AgentResult (agent.run) or the path of a trajectory file';

/** The calls of a reference, in order; refuses anything else with a `UsageError` saying what it takes. */
export function referenceCalls(reference: unknown): ReferenceCall[] {
  if (typeof reference === 'string') {
    if (reference === '')
      throw new UsageError(REFERENCE, `toMatchTrajectory's reference must be ${KINDS}, but it was the empty string.`);
    const hint =
      `toMatchTrajectory reads its reference from this path, relative to the working directory (${resolve('.')}): ` +
      'give the path of a recorded trajectory, or the reference calls as a list of { tool, input? }.';
    return callsOf(loadTrajectory(reference, hint));
  }
  if (Array.isArray(reference)) return reference.map(readEntry);
  if (isTrajectory(reference) || isAgentResult(reference)) return callsOf(reference);
  throw new UsageError(
    REFERENCE,
    `toMatchTrajectory's reference must be ${KINDS}, but it was ${describeValue(reference)}.`,
  );
}

function callsOf(run: Trajectory | AgentResult): ReferenceCall[] {
  return viewOf(run).calls.map((call) => ({ tool: call.name, input: call.input }));
}

function readEntry(entry: unknown, i: number): ReferenceCall {
  const which = `call ${i + 1} of toMatchTrajectory's reference`;
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    const hint = typeof entry === 'string' ? ` (a tool's name alone: write { tool: ${JSON.stringify(entry)} })` : '';
    throw new UsageError(REFERENCE, `${which} must be { tool, input? }, but it was ${describeValue(entry)}${hint}.`);
  }
  const record = entry as Record<string, unknown>;
  if (typeof record.tool !== 'string' || record.tool === '') {
    const hint = 'name' in record ? ` (it has a 'name': a reference call names its tool 'tool')` : '';
    throw new UsageError(
      REFERENCE,
      `${which} must name its tool: 'tool' must be a non-empty string, but it was ${describeValue(record.tool)}${hint}.`,
    );
  }
  const unknown = Object.keys(record).filter((key) => key !== 'tool' && key !== 'input');
  if (unknown.length > 0)
    throw new UsageError(
      REFERENCE,
      `${which} has ${unknown.map((key) => `'${key}'`).join(', ')}, which a reference call does not take: it is ` +
        `{ tool, input? }${unknown.includes('args') || unknown.includes('arguments') ? ` (the arguments are its 'input')` : ''}.`,
    );
  return 'input' in record ? { tool: record.tool, input: record.input } : { tool: record.tool };
}
