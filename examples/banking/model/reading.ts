import type { Transaction } from '../bank.js';
import { type Conversation, HISTORY, SCHEDULE } from './conversation.js';

/** How the scripted model reads values in text: an IBAN (spaced or not), an amount (1,180.00), a date. */
export const IBAN_TEXT = String.raw`([A-Z]{2}\d{2}(?: ?[A-Z0-9]{4})*(?: ?[A-Z0-9]{1,4})?)`;
export const AMOUNT_TEXT = String.raw`(\d[\d,]*(?:\.\d{1,2})?)`;
export const DATE_TEXT = String.raw`(\d{4}-\d{2}-\d{2})`;

export function amountOf(text: string): number {
  return Number(text.replace(/,/g, ''));
}

/** A transaction as a bank tool shows it (the model knows the tools' output shape, not the world). */
export type SeenTransaction = Transaction;

function transactionsIn(value: unknown): SeenTransaction[] | undefined {
  return Array.isArray(value) ? (value as SeenTransaction[]) : undefined;
}

/** The recent history, once read. */
export function history(c: Conversation): SeenTransaction[] | undefined {
  return transactionsIn(c.json(HISTORY));
}

/** The scheduled payments, once read. */
export function schedule(c: Conversation): SeenTransaction[] | undefined {
  return transactionsIn(c.json(SCHEDULE));
}

/** The customer's own IBAN, as a history shows it: the account on one side of every transaction. */
export function ownIban(transactions: SeenTransaction[]): string | undefined {
  const first = transactions[0];
  if (first === undefined) return undefined;
  return [first.sender, first.recipient].find((iban) =>
    transactions.every((t) => t.sender === iban || t.recipient === iban),
  );
}

/** The other side of the latest transaction whose subject mentions `who`: who paid you, or whom you paid. */
export function counterparty(
  transactions: SeenTransaction[],
  who: string,
): { iban: string; seen: SeenTransaction } | undefined {
  const own = ownIban(transactions);
  const seen = transactions.findLast((t) => t.subject.toLowerCase().includes(who.toLowerCase()));
  if (seen === undefined || own === undefined) return undefined;
  return { iban: seen.sender === own ? seen.recipient : seen.sender, seen };
}

/** The scheduled payment whose subject mentions `what`. */
export function scheduledFor(c: Conversation, what: string): SeenTransaction | undefined {
  return schedule(c)?.find((t) => t.subject.toLowerCase().includes(what.toLowerCase()));
}
