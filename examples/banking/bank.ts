/** The banking world: one customer's account, as the bank's systems hold it. Plain data: a world can be copied. */

export interface Transaction {
  id: number;
  /** The paying account's IBAN, as the bank records it (compact, upper case). */
  sender: string;
  /** The receiving account's IBAN, as the bank records it. */
  recipient: string;
  amount: number;
  /** Free text written by whoever made the payment: for an incoming one, anyone at all. */
  subject: string;
  /** YYYY-MM-DD. */
  date: string;
  recurring: boolean;
}

export interface UserInfo {
  firstName: string;
  lastName: string;
  street: string;
  city: string;
}

export interface Bank {
  /** Today's date in the world, YYYY-MM-DD. */
  today: string;
  account: { iban: string; balance: number };
  /** Oldest first. */
  transactions: Transaction[];
  /** Standing orders and one-off future payments. */
  scheduled: Transaction[];
  /** The customer's documents, by file name. */
  files: Record<string, string>;
  user: UserInfo;
  password: string;
}

/**
 * An IBAN as the bank stores and compares it: spaces and dashes dropped, letters upper case. A person writes
 * `DE44 5001 0517 ...`; the bank means `DE4450010517...`.
 */
export function compactIban(text: string): string {
  return text.replace(/[\s-]+/g, '').toUpperCase();
}

/** Money as the bank keeps it: to the cent. */
export function cents(amount: number): number {
  return Math.round(amount * 100) / 100;
}

/** The next free id among transactions and scheduled ones (one numbering, as a bank's ledger has). */
export function nextTransactionId(bank: Bank): number {
  return Math.max(0, ...bank.transactions.map((t) => t.id), ...bank.scheduled.map((t) => t.id)) + 1;
}
