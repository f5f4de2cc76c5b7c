import type { AgentResult } from './agentResult.js';
import { EventLog, type AgentEventListener } from './events.js';

/**
 * Runs the work of a run (a run, a resume, a recovery) with a signal of its own, aborted when the caller's is, and an
 * event log for the caller's listener. When the work ends, however it ends, the tools still running are told to stop.
 */
export async function withRunSignal(
  options: { signal?: AbortSignal; onEvent?: AgentEventListener; keepStreamEvents?: boolean },
  work: (signal: AbortSignal, log: EventLog) => Promise<AgentResult>,
): Promise<AgentResult> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.throwIfAborted();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await work(
      controller.signal,
      new EventLog(options.onEvent, { keepStreamEvents: options.keepStreamEvents ?? false }),
    );
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    // Tools still running when the run ends (it failed or was cancelled) are told to stop.
    controller.abort(new Error('The run has ended.'));
  }
}
