import type { RunView } from './runView.js';

/** The run's tool calls, one a line, for failure messages: what happened, not what was said. */
export function describeTimeline(view: RunView): string {
  if (view.calls.length === 0) return `Tool calls: none (the run stopped with ${view.stopReason}).`;
  const width = Math.max(...view.calls.map((call) => call.name.length));
  const lines = view.calls.map((call, i) => {
    const facts = [
      call.rule,
      call.source === undefined ? undefined : `source ${call.source}`,
      call.code,
      call.argument === undefined ? undefined : `argument ${call.argument}`,
    ].filter((fact): fact is string => fact !== undefined);
    const detail = facts.length > 0 ? ` (${facts.join(', ')})` : '';
    return `  ${String(i + 1).padStart(2)}. ${call.name.padEnd(width)}  ${call.outcome}${detail}`;
  });
  const taint = view.tainted ? `; tainted by ${view.taintSource ?? 'an untrusted tool'}` : '';
  return `Tool calls:\n${lines.join('\n')}\nStopped with ${view.stopReason}${taint}.`;
}
