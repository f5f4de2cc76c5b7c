import type { AgentDefinition } from '../agentDefinition.js';
import type { AgentResult } from '../agentResult.js';
import { checkTelemetryOption } from '../checkRunOptions.js';
import { signingKey } from '../runConfig.js';
import type { RecoverOptions } from '../runOptions.js';
import { checkSuspension } from './checkSuspension.js';
import { defaultOwner, DEFAULT_STALE_AFTER_MS, takeOver } from './claimLedger.js';
import { continueSuspension, suspendedRunConfig } from './continueSuspension.js';
import type { Suspension } from '../agentResult.js';

/**
 * Finishes a resume whose process stopped between its claim and its end (`agent.recover`): takes the claim over once
 * it has stood still for `staleAfterMs`, and continues with the decisions recorded on it.
 */
export async function recoverSuspension(
  started: AgentDefinition,
  suspension: Suspension,
  options: RecoverOptions,
): Promise<AgentResult> {
  checkTelemetryOption('telemetry', options.telemetry);
  const config = suspendedRunConfig(started, suspension, options);
  checkSuspension(suspension, config.agent.name, signingKey(config.run, config.agent));
  const rerun = new Set(options.rerun ?? []);
  const { ledger, decisions } = await takeOver(
    options.store,
    suspension,
    options.owner ?? defaultOwner(),
    options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS,
  );
  return continueSuspension(started, config, suspension, decisions, options, {
    ledger,
    rerun: (tool) => rerun.has(tool),
  });
}
