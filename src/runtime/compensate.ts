import type { InvalidArgument } from '../tools/binder/invalidArgument.js';
import type { AnyTool } from '../tools/tool.js';
import { abortable } from './abortable.js';
import type { AgentResult } from './agentResult.js';

/** What undoing a run did, call by call. Compensation never throws for a failing compensator. */
export interface CompensationReport {
  /** Calls undone, in the order they were undone (the reverse of the run's). */
  compensated: { id: string; tool: string; compensator: string }[];
  /** Compensators that refused the original input or threw: the effect may still stand. */
  failed: {
    id: string;
    tool: string;
    compensator: string;
    error: InvalidArgument | { error: 'compensator_failed'; errorClass: string; cause: unknown };
  }[];
  /** Compensable calls that had nothing to undo: they failed, were refused, or were only planned. */
  skipped: { id: string; tool: string; outcome: string }[];
}

/**
 * Undoes every successful call of a compensable tool, newest first, by calling its
 * compensator with the call's original input.
 */
export async function compensate(
  result: AgentResult,
  tools: ReadonlyMap<string, AnyTool>,
  context: { agent: string; now: () => Date; signal?: AbortSignal },
): Promise<CompensationReport> {
  const report: CompensationReport = { compensated: [], failed: [], skipped: [] };
  const signal = context.signal ?? new AbortController().signal;
  for (const call of [...result.toolCalls].reverse()) {
    const compensatorName = tools.get(call.name)?.compensatedBy;
    if (compensatorName === undefined) continue;
    if (call.outcome !== 'ok') {
      report.skipped.push({ id: call.id, tool: call.name, outcome: call.outcome });
      continue;
    }
    const compensator = tools.get(compensatorName)!;
    const entry = { id: call.id, tool: call.name, compensator: compensatorName };
    const bound = compensator.bind(call.input);
    if (!bound.ok) {
      report.failed.push({ ...entry, error: bound.invalid });
      continue;
    }
    try {
      await abortable(
        Promise.resolve().then(() =>
          compensator.run(bound.args, { toolUseId: call.id, agent: context.agent, signal, now: context.now }),
        ),
        signal,
      );
      report.compensated.push(entry);
    } catch (thrown) {
      if (signal.aborted) throw signal.reason;
      const errorClass = thrown instanceof Error ? thrown.constructor.name : typeof thrown;
      report.failed.push({ ...entry, error: { error: 'compensator_failed', errorClass, cause: thrown } });
    }
  }
  return report;
}
