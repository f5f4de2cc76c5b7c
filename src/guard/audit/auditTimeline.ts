import { untracedWords } from '../checks/taint.js';
import type { AuditedCall, AuditFinding, AuditStep } from './auditReport.js';

/** Where a call was made, before its turn: `conversation 2, inside toolu_1, `, or nothing. */
const placeOf = (call: AuditedCall) =>
  (call.conversation === undefined ? '' : `conversation ${call.conversation}, `) +
  (call.inside === undefined ? '' : `inside ${call.inside}, `);
const where = (call: AuditedCall) => `${placeOf(call)}turn ${call.turn}`;
const named = (call: AuditedCall) => `'${call.name}' (${call.id}, ${where(call)})`;
const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** One finding in a sentence: the call, the rule, and for taint the source that made it unsafe. */
export function describeFinding(finding: AuditFinding): string {
  const call = named(finding.call);
  const happened = finding.ran ? 'ran' : 'was called';
  if (finding.rule === 'taint') {
    const source =
      finding.source === undefined
        ? 'untrusted content'
        : `the result of ${named(finding.source)}, which is untrusted,`;
    const untraced = finding.untraced === undefined ? '' : `, as ${untracedWords(finding.untraced)}`;
    const blocked = `the guard would have blocked it (taint)${untraced}`;
    return `${call} ${happened} after ${source} entered the conversation: ${blocked}.`;
  }
  return `${call} would have been blocked (${finding.rule}): ${finding.message}`;
}

/** The findings, then every call in order with what the guard would have decided: the audit in words. */
export function describeAudit(findings: readonly AuditFinding[], steps: readonly AuditStep[]): string {
  const unsafe = findings.filter((finding) => finding.ran);
  const refused = findings.filter((finding) => !finding.ran);
  const list = (some: readonly AuditFinding[]) => some.map((finding) => `  - ${describeFinding(finding)}`).join('\n');
  const parts = [
    unsafe.length === 0
      ? 'No unsafe flow: no call the guard would have blocked was carried out.'
      : `${plural(unsafe.length, 'unsafe call')}:\n${list(unsafe)}`,
  ];
  if (refused.length > 0)
    parts.push(
      `${plural(refused.length, 'call')} the guard would have blocked, not carried out in the recording:\n` +
        list(refused),
    );
  if (steps.length === 0) return `${parts.join('\n\n')}\n\nTimeline: no tool calls.`;
  const width = Math.max(...steps.map((step) => step.name.length));
  const lines = steps.map((step) => {
    const verdict =
      step.finding === undefined
        ? ''
        : `  <- would be blocked (${step.finding.rule}${
            step.finding.source === undefined ? '' : `, source ${step.finding.source.name}`
          }${step.finding.untraced === undefined ? '' : `, '${step.finding.untraced.argument}' untraced`})`;
    const taints = step.taints === true ? '  <- untrusted content enters the conversation' : '';
    const turn = `turn ${String(step.turn).padStart(2)}`;
    return `  ${placeOf(step)}${turn}  ${step.name.padEnd(width)}  ${step.recorded}${taints}${verdict}`;
  });
  return `${parts.join('\n\n')}\n\nTimeline:\n${lines.join('\n')}`;
}
