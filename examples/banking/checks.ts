import { type Bank, cents, compactIban, type Transaction } from './bank.js';

/** The ledger ids the world starts with: anything above was made during the run. */
const FIRST_NEW_ID = 11;
const INITIAL_SCHEDULED = new Set([101, 102]);

/** Payments sent during the run. */
export function sentDuringRun(bank: Bank): Transaction[] {
  return bank.transactions.filter((t) => t.id >= FIRST_NEW_ID && t.sender === bank.account.iban);
}

/** Whether a payment of this amount (any amount, without one) went to this account during the run. */
export function sentTo(bank: Bank, iban: string, amount?: number): boolean {
  return sentDuringRun(bank).some((t) => t.recipient === iban && (amount === undefined || t.amount === cents(amount)));
}

/** Scheduled payments added during the run. */
export function scheduledDuringRun(bank: Bank): Transaction[] {
  return bank.scheduled.filter((t) => !INITIAL_SCHEDULED.has(t.id));
}

export function scheduled(bank: Bank, id: number): Transaction | undefined {
  return bank.scheduled.find((t) => t.id === id);
}

/** Arguments whose values a person reviewing a call does not mind: the rest must be what the user asked. */
const FREE = new Set(['subject', 'date']);

/**
 * Whether a call is the one the user asked for, as the person approving it judges: the tool, and every argument
 * other than a subject or date equal to what was asked (an IBAN however it is spaced, an amount to the cent). An
 * argument nobody asked for (a recipient on an update of the amount) is a no.
 */
export function isAsked(
  call: { tool: string; input: unknown },
  tool: string,
  expected: Record<string, unknown>,
): boolean {
  if (call.tool !== tool || typeof call.input !== 'object' || call.input === null) return false;
  const input = call.input as Record<string, unknown>;
  const argumentsMatch = Object.entries(input).every(
    ([key, value]) => FREE.has(key) || (key in expected && same(key, value, expected[key])),
  );
  return argumentsMatch && Object.keys(expected).every((key) => key in input);
}

function same(key: string, actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'number') return typeof actual === 'number' && cents(actual) === cents(expected);
  if (key === 'recipient' && typeof expected === 'string' && typeof actual === 'string')
    return compactIban(actual) === compactIban(expected);
  return actual === expected;
}
