import type { CallDecision } from '../runtime/replayReferee.js';
import type { RecordedResult } from '../trajectory/types.js';

/**
 * The decision a recording shows for a call: `suspended` for a call a person then decided on
 * (`approved` present), else read off its result's outcome, rule, source, code and argument.
 */
export function recordedDecision(result: RecordedResult, decidedByPerson: boolean): CallDecision {
  if (decidedByPerson) return { outcome: 'suspended' };
  switch (result.outcome) {
    case 'ok':
    case 'error':
      return { outcome: 'run' };
    case 'invalid':
      return {
        outcome: 'invalid',
        code: result.code ?? 'invalid_argument',
        ...(result.argument === undefined ? {} : { argument: result.argument }),
      };
    case 'blocked':
      return {
        outcome: 'blocked',
        rule: result.rule ?? 'unknown',
        ...(result.source === undefined ? {} : { source: result.source }),
      };
    case 'planned':
      return { outcome: 'planned' };
    case 'suspended':
      return { outcome: 'suspended' };
    case 'incomplete':
      return { outcome: 'incomplete' };
  }
}

/** Whether two decisions are the same: outcome, and the rule and source or code and argument behind it. */
export function sameDecision(a: CallDecision, b: CallDecision): boolean {
  if (a.outcome === 'blocked' && b.outcome === 'blocked') return a.rule === b.rule && a.source === b.source;
  if (a.outcome === 'invalid' && b.outcome === 'invalid') return a.code === b.code && a.argument === b.argument;
  return a.outcome === b.outcome;
}

/** A decision in words: as it was recorded (`past`), or as today's code would take it. */
export function describeDecision(decision: CallDecision, when: 'past' | 'today'): string {
  const past = when === 'past';
  switch (decision.outcome) {
    case 'run':
      return past ? 'ran' : 'would run it';
    case 'invalid': {
      const what =
        decision.code === 'unknown_tool'
          ? 'a call of an unknown tool'
          : `invalid (${decision.code}${decision.argument === undefined ? '' : ` at '${decision.argument}'`})`;
      return past ? `was refused as ${what}` : `would refuse it as ${what}`;
    }
    case 'blocked': {
      const by = `by rule '${decision.rule}'${decision.source === undefined ? '' : ` (source ${decision.source})`}`;
      return past ? `was blocked ${by}` : `would block it ${by}`;
    }
    case 'planned':
      return past ? 'was planned, not run (shadow mode)' : 'would plan it without running it (shadow mode)';
    case 'suspended':
      return past ? 'waited for approval' : 'would stop for approval';
    case 'incomplete':
      return past
        ? 'was not run: its response was cut off by max_tokens'
        : 'would not run it (its response cut off by max_tokens)';
  }
}
