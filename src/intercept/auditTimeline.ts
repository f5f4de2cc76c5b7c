import type { AuditedCall, AuditFinding, AuditStep } from './auditTrajectory.js';

const named = (call: AuditedCall) => `'${call.name}' (${call.id}, turn ${call.turn})`;

/** One finding in a sentence: the call, the rule, and for taint the source that made it unsafe. */
export function describeFinding(finding: AuditFinding): string {
  const call = named(finding.call);
  if (finding.rule === 'taint') {
    const source =
      finding.source === undefined
        ? 'untrusted content'
        : `the result of ${named(finding.source)}, which is untrusted,`;
    return `${call} ran after ${source} entered the conversation: the guard would have blocked it (taint).`;
  }
  return `${call} would have been blocked (${finding.rule}): ${finding.message}`;
}

/** The findings, then every call in order with what the guard would have decided: the audit in words. */
export function describeAudit(findings: readonly AuditFinding[], steps: readonly AuditStep[]): string {
  const head =
    findings.length === 0
      ? 'No unsafe flow: the guard would have blocked none of the calls.'
      : `${findings.length} unsafe call${findings.length === 1 ? '' : 's'}:\n` +
        findings.map((finding) => `  - ${describeFinding(finding)}`).join('\n');
  if (steps.length === 0) return `${head}\n\nTimeline: no tool calls.`;
  const width = Math.max(...steps.map((step) => step.name.length));
  const lines = steps.map((step) => {
    const verdict =
      step.finding === undefined
        ? ''
        : `  <- would be blocked (${step.finding.rule}${
            step.finding.source === undefined ? '' : `, source ${step.finding.source.name}`
          })`;
    const taints = step.taints === true ? '  <- untrusted content enters the conversation' : '';
    return `  turn ${String(step.turn).padStart(2)}  ${step.name.padEnd(width)}  ${step.recorded}${taints}${verdict}`;
  });
  return `${head}\n\nTimeline:\n${lines.join('\n')}`;
}
