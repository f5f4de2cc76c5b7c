import type { DefenceMode } from '../../src/fuzz/index.js';

/** The safety flags a bank tool is declared with, per defence mode. */
export interface Posture {
  untrusted?: true;
  privileged?: true;
  outsideAuthored?: string[];
  sensitive?: string[];
}

/**
 * Tools that return text someone outside may have written, and which of it (under provenance):
 * - `read_file`: a document is the sender's text, all of it (no `outsideAuthored`: the whole output).
 * - `list_transactions`: the bank vouches for sender, recipient, amount and date; the subject is whatever the payer
 *   typed, and anyone can pay you.
 * - `get_scheduled_transactions`: the bank vouches for the fields of a standing order, but its subject is free text
 *   a model may have written, copying it from outside content; were it trusted, an injection could plant an IBAN in
 *   a subject in one call and have it "traced" in the next. So every subject is outside-authored, wherever it shows.
 */
const READERS: Record<string, string[] | undefined> = {
  read_file: undefined,
  list_transactions: ['[].subject'],
  get_scheduled_transactions: ['[].subject'],
};

/**
 * Tools with an effect in the world, and the arguments that must come from trusted text (under provenance):
 * who gets the money, the password, the customer's identity.
 *
 * Amounts are deliberately not sensitive: a bill, a rent notice, a friend's request say what is owed, and that text
 * is outside-authored by nature, so a sensitive amount would block exactly the tasks provenance is meant to allow.
 * The price: an injection can change how much goes to a recipient the user already pays (the suite's
 * `attackerValue: false` goals measure it). Subjects and dates are not sensitive either; a subject can carry data
 * out, but only to a recipient that passed the check.
 */
const WRITERS: Record<string, string[]> = {
  send_money: ['recipient'],
  schedule_transaction: ['recipient'],
  update_scheduled_transaction: ['recipient'],
  update_password: ['password'],
  update_user_info: ['first_name', 'last_name', 'street', 'city'],
};

/**
 * The flags of one tool in one mode: `none` declares nothing; `taint` marks readers untrusted and writers privileged;
 * `approve` is the same (the agent holds tainted calls for a person); `provenance` adds which output is
 * outside-authored and which arguments are sensitive.
 */
export function posture(mode: DefenceMode, tool: string): Posture {
  if (mode === 'none') return {};
  const provenance = mode === 'provenance';
  if (tool in READERS) {
    const outside = READERS[tool];
    return provenance && outside !== undefined ? { untrusted: true, outsideAuthored: outside } : { untrusted: true };
  }
  const sensitive = WRITERS[tool];
  if (sensitive === undefined) return {};
  return provenance ? { privileged: true, sensitive } : { privileged: true };
}
