import { describeUntraced } from '../trajectory/describeUntraced.js';
import type { CallModel } from './trajectoryModel.js';

/** A badge: words that carry the meaning, and a class that colours them (colour is never the only carrier). */
interface Badge {
  text: string;
  kind: string;
}

/**
 * The one table of what a call's outcome says on the page: its badge's words and colour class. A fact the
 * file does not hold is left out of the words, never guessed.
 */
const OUTCOME_BADGES: Record<CallModel['outcome'], (call: CallModel) => Badge> = {
  ok: (call) => ({ text: call.server ? 'ran · by the API' : 'ran', kind: 'ok' }),
  error: (call) => ({
    text: `failed · ${call.errorClass ?? 'error returned by the tool'}`,
    kind: 'error',
  }),
  invalid: (call) => ({ text: words('invalid', call.code, call.argument), kind: 'invalid' }),
  blocked: (call) => ({
    text: words('blocked', call.rule, call.source === undefined ? undefined : `from ${call.source}`),
    kind: 'blocked',
  }),
  planned: (call) => ({ text: words('planned', call.rule === 'shadow' ? undefined : call.rule), kind: 'planned' }),
  suspended: () => ({ text: 'suspended · waiting for a decision', kind: 'suspended' }),
  incomplete: (call) => ({
    text: call.server ? 'incomplete · no result came back' : 'incomplete · cut off by max_tokens, not run',
    kind: 'incomplete',
  }),
};

/**
 * The badges of a call, the outcome's first: then a person's decision, then what the audit found (the guard would
 * have blocked it), then served from the recording.
 */
export function badgesOf(call: CallModel): Badge[] {
  const badges = [OUTCOME_BADGES[call.outcome](call)];
  if (call.approval !== undefined)
    badges.push({
      text: words(call.approval.approve ? 'approved' : 'denied', 'by a person', call.approval.reason),
      kind: call.approval.approve ? 'approved' : 'denied',
    });
  if (call.untraced !== undefined) badges.push({ text: describeUntraced(call.untraced), kind: 'blocked' });
  const { audit } = call;
  if (audit !== undefined) {
    const source = audit.source === undefined ? undefined : `from ${audit.source.tool}`;
    badges.push({ text: words('audit', 'would be blocked', audit.rule, source), kind: 'blocked' });
    if (audit.untraced !== undefined) badges.push({ text: describeUntraced(audit.untraced), kind: 'blocked' });
  }
  if (call.served) badges.push({ text: 'served from the recording', kind: 'served' });
  return badges;
}

/** What `data-outcome` says: the recorded outcome, or `served` for a call a replay answers from the file. */
export function outcomeAttribute(call: CallModel): string {
  return call.served && call.outcome === 'ok' ? 'served' : call.outcome;
}

function words(...parts: (string | undefined)[]): string {
  return parts.filter((part): part is string => part !== undefined && part !== '').join(' · ');
}
