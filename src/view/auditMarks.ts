import type { AuditReport, AuditStep } from '../guard/audit/auditReport.js';
import type { AuditMark } from './trajectoryModel.js';

/** Where a run is in its file: which conversation (1-based), inside which calls' sub-agent runs (ids by ` > `). */
export interface RunPlace {
  conversation: number;
  inside: string | undefined;
}

/**
 * An audit's report ({@link AuditReport}) by call, for the page: each call's finding, and the call whose result
 * tainted each run. A file audited by no declarations has none.
 */
export class AuditMarks {
  readonly #steps = new Map<string, AuditStep>();

  constructor(report: AuditReport | undefined) {
    for (const step of report?.steps ?? [])
      this.#steps.set(key({ conversation: step.conversation ?? 1, inside: step.inside }, step.id), step);
  }

  /** The finding on the call `id` of the run at `place`, if the audit has one. */
  markOf(place: RunPlace, id: string): AuditMark | undefined {
    const finding = this.#steps.get(key(place, id))?.finding;
    if (finding === undefined) return undefined;
    const mark: AuditMark = { rule: finding.rule, ran: finding.ran };
    if (finding.source !== undefined)
      mark.source = { id: finding.source.id, tool: finding.source.name, turn: finding.source.turn };
    if (finding.untraced !== undefined)
      mark.untraced = {
        argument: finding.untraced.argument,
        value: finding.untraced.value,
        foundIn: [...finding.untraced.foundIn],
      };
    return mark;
  }

  /** Whether the result of the call `id` of the run at `place` is where untrusted content entered it. */
  taints(place: RunPlace, id: string): boolean {
    return this.#steps.get(key(place, id))?.taints === true;
  }
}

const key = (place: RunPlace, id: string) => `${place.conversation}\u0000${place.inside ?? ''}\u0000${id}`;
