import type { AgentDefinition } from '../agentDefinition.js';
import type { AgentResult } from '../agentResult.js';
import { checkTelemetryOption } from '../checkRunOptions.js';
import { signingKey } from '../runConfig.js';
import type { ResumeOptions } from '../runOptions.js';
import { checkResume } from './checkSuspension.js';
import { defaultOwner, takeClaim, unrecorded } from './claimLedger.js';
import { continueSuspension, suspendedRunConfig } from './continueSuspension.js';
import type { Suspension } from '../agentResult.js';
import { SuspensionError } from './suspensionError.js';

/**
 * Continues a suspended run with a person's decision (`agent.resume`). Refused, before anything runs, when the
 * suspension was already resumed, when a pending call is not the one that was suspended, or when a decision was given
 * for other arguments. The suspension is claimed in the store given (else in this process) before anything runs.
 */
export async function resumeSuspension(
  started: AgentDefinition,
  suspension: Suspension,
  options: ResumeOptions,
): Promise<AgentResult> {
  checkTelemetryOption('telemetry', options.telemetry);
  const config = suspendedRunConfig(started, suspension, options);
  const decisions = checkResume(
    suspension,
    config.agent.name,
    options.approve,
    options.reason,
    signingKey(config.run, config.agent),
  );
  const ledger =
    options.store === undefined
      ? claimHere(suspension.id)
        ? unrecorded
        : undefined
      : await takeClaim(options.store, suspension, decisions, options.owner ?? defaultOwner());
  if (ledger === undefined)
    throw new SuspensionError(
      'already_resumed',
      `Suspension ${suspension.id} of run ${suspension.runId} was already resumed; a decision applies once.`,
    );
  return continueSuspension(started, config, suspension, decisions, options, { ledger });
}

/** Suspensions resumed by this process, for resumes made without a store. */
const resumedHere = new Set<string>();

function claimHere(suspensionId: string): boolean {
  if (resumedHere.has(suspensionId)) return false;
  resumedHere.add(suspensionId);
  return true;
}
