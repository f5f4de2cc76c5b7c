import { UsageError } from '../errors/UsageError.js';
import type { AuditDeclarations } from '../guard/auditDeclarations.js';
import { auditTrajectory } from '../guard/audit/auditTrajectory.js';
import { describeFinding } from '../guard/audit/auditTimeline.js';
import type { AgentResult } from '../runtime/agentResult.js';
import type { Trajectory } from '../trajectory/types.js';
import type { CheckOutcome } from './checkOutcome.js';
import { isTrajectory } from '../replay/runView.js';

/** The check of `toHaveNoUnsafeFlow`: the audit of a trajectory, its findings and timeline as the message. */
export function unsafeFlowOutcome(subject: AgentResult | Trajectory, declarations: AuditDeclarations): CheckOutcome {
  if (!isTrajectory(subject))
    throw new UsageError(
      'not_a_trajectory',
      'toHaveNoUnsafeFlow audits a recorded run: give it a Trajectory (loadTrajectory(file), or the `trajectory` ' +
        'of runTrajectory), not an AgentResult. A live run with the tools declared is guarded already: use ' +
        'toHaveBlocked on it.',
    );
  const report = auditTrajectory(subject, declarations);
  const first = report.findings.find((finding) => finding.ran);
  return {
    pass: report.clean,
    message: (negated) =>
      negated
        ? 'expected the run to have an unsafe flow, but no call the guard would have blocked was carried out.\n\n' +
          report.text
        : `expected the run to have no unsafe flow, but ${first === undefined ? '?' : describeFinding(first)}\n\n${
            report.text
          }`,
  };
}
