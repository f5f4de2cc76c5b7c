import type { CallModel } from './trajectoryModel.js';

/**
 * The path of taint through a run's calls, in order: each call blocked by taint names its source (the
 * untrusted tool); the call it came from is the first earlier call of that tool whose content entered the
 * conversation (it ran, or returned an error in its own words, or a server tool's result came back).
 * That call is marked `taints`; the blocked call gets `taintedBy`. A source the run's own calls do not hold
 * (a history the run continued, an unattributed result) is left as the recorded name alone. The call
 * that gave the run its taint (the summary's `taintSource`) is marked too, whether or not it blocked anything.
 * A call the audit found the guard would have refused by taint is linked the same way, to the call its finding names.
 */
export function linkTaintPath(calls: readonly CallModel[], taintSource: string | undefined): void {
  // The run's taint, blocked calls or not: its first source's call.
  const first = calls.find((call) => call.tool === taintSource && enteredConversation(call));
  if (first !== undefined) first.taints = true;
  calls.forEach((call, i) => {
    const audited = call.audit?.source;
    if (audited !== undefined) {
      const origin = calls.slice(0, i).find((earlier) => earlier.id === audited.id);
      if (origin === undefined) return;
      origin.taints = true;
      call.taintedBy = origin;
      return;
    }
    if (call.outcome !== 'blocked' || call.rule !== 'taint' || call.source === undefined) return;
    const origin = calls.slice(0, i).find((earlier) => earlier.tool === call.source && enteredConversation(earlier));
    if (origin === undefined) return;
    origin.taints = true;
    call.taintedBy = origin;
  });
}

function enteredConversation(call: CallModel): boolean {
  return call.outcome === 'ok' || (call.outcome === 'error' && call.errorClass === undefined && !call.server);
}
