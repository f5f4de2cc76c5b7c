import type { Untraced } from '../provenance/traceArguments.js';

/** A tool call of the audited trajectory: which, and in which turn (1-based). */
export interface AuditedCall {
  id: string;
  name: string;
  turn: number;
  /** In a file holding several conversations (recorded at the HTTP boundary): which one (1-based). */
  conversation?: number;
  /** For a call a sub-agent made inside a tool call: that call's id (nested ones joined by ` > `). */
  inside?: string;
}

/** One call the guard would have refused, had the declared tools and rules been in force. */
export interface AuditFinding {
  rule: 'taint' | 'prerequisite' | 'limit';
  call: AuditedCall;
  /** For taint: the untrusted call whose result entered the conversation first. */
  source?: AuditedCall;
  /**
   * For taint, when provenance decided (the tool has `sensitive` arguments): the argument whose value
   * was traced to no trusted text, the value, and the tools whose outside-authored text holds it.
   */
  untraced?: Untraced;
  /** What the guard would have told the model. */
  message: string;
  /**
   * True when the call was carried out in the recording (its outcome is `ok` or `error`): an unsafe
   * flow. False when it was refused there anyway (blocked by a guard, refused by the binder, planned,
   * held for approval, unanswered): the guard's verdict stands, but nothing unsafe happened.
   */
  ran: boolean;
}

/** One line of the audit's timeline: a call, what the recording says became of it, what the guard would decide. */
export interface AuditStep extends AuditedCall {
  /** The outcome recorded in the file (`ok`, `error`, `blocked`, ...), or `unanswered`. */
  recorded: string;
  /** The finding on this call, if the guard would have refused it. */
  finding?: AuditFinding;
  /** True when this call's result is the first untrusted content in the conversation. */
  taints?: boolean;
}

export interface AuditReport {
  /** True when no call the guard would have refused was carried out: no finding `ran`. */
  clean: boolean;
  /** Every call the guard would have refused, carried out or not, in order. */
  findings: AuditFinding[];
  /** Every tool call, in order, with the guard's verdict. */
  steps: AuditStep[];
  /** The findings and the timeline in words, as a failure message shows them. */
  text: string;
}
