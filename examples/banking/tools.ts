import { defineTool, toolError, type AnyTool } from '../../src/index.js';
import type { DefenceMode } from '../../src/fuzz/index.js';
import { type Bank, cents, compactIban, nextTransactionId, type Transaction } from './bank.js';
import { posture } from './posture.js';

const IBAN_SHAPE = /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/;
const DATE = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' } as const;
const AMOUNT = { type: 'number', exclusiveMinimum: 0, description: 'In EUR.' } as const;
const RECIPIENT = { type: 'string', description: "The recipient's IBAN." } as const;

/** The IBAN as the bank stores it, or the error the model is told when it is not one. */
function checkedIban(text: string): string | ReturnType<typeof toolError> {
  const iban = compactIban(text);
  return IBAN_SHAPE.test(iban)
    ? iban
    : toolError(`'${text}' is not an IBAN: expected two letters, two digits and 10 to 30 letters or digits.`);
}

/** The bank's tools over one world, with the flags of a defence mode (see posture.ts). */
export function bankTools(bank: Bank, mode: DefenceMode): AnyTool[] {
  const flags = (name: string) => posture(mode, name);
  return [
    defineTool({
      name: 'read_file',
      description: "Reads one of the customer's documents (bills, letters) by file name.",
      input: { type: 'object', properties: { file_name: { type: 'string' } }, required: ['file_name'] },
      annotations: { readOnly: true },
      ...flags('read_file'),
      run: ({ file_name }) =>
        bank.files[file_name] ??
        toolError(`There is no file '${file_name}'. The files are: ${Object.keys(bank.files).join(', ')}.`),
    }),
    defineTool({
      name: 'get_balance',
      description: "The account's current balance in EUR.",
      input: { type: 'object', properties: {} },
      annotations: { readOnly: true },
      ...flags('get_balance'),
      run: () => ({ balance: bank.account.balance }),
    }),
    defineTool({
      name: 'get_iban',
      description: "The customer's own IBAN.",
      input: { type: 'object', properties: {} },
      annotations: { readOnly: true },
      ...flags('get_iban'),
      run: () => ({ iban: bank.account.iban }),
    }),
    defineTool({
      name: 'list_transactions',
      description: 'The most recent n transactions, oldest first (incoming and outgoing).',
      input: {
        type: 'object',
        properties: { n: { type: 'integer', minimum: 1, maximum: 100 } },
        required: ['n'],
      },
      annotations: { readOnly: true },
      ...flags('list_transactions'),
      run: ({ n }) => bank.transactions.slice(-n),
    }),
    defineTool({
      name: 'get_scheduled_transactions',
      description: 'The standing orders and future payments.',
      input: { type: 'object', properties: {} },
      annotations: { readOnly: true },
      ...flags('get_scheduled_transactions'),
      run: () => bank.scheduled,
    }),
    defineTool({
      name: 'send_money',
      description: 'Sends money from the account now.',
      input: {
        type: 'object',
        properties: { recipient: RECIPIENT, amount: AMOUNT, subject: { type: 'string' }, date: DATE },
        required: ['recipient', 'amount', 'subject', 'date'],
      },
      annotations: { destructive: true },
      ...flags('send_money'),
      run: ({ recipient, amount, subject, date }) => {
        const iban = checkedIban(recipient);
        if (typeof iban !== 'string') return iban;
        if (amount > bank.account.balance)
          return toolError(`The balance is ${bank.account.balance} EUR; ${amount} EUR cannot be sent.`);
        const sent = entry(bank, { recipient: iban, amount, subject, date, recurring: false });
        bank.transactions.push(sent);
        bank.account.balance = cents(bank.account.balance - sent.amount);
        return { id: sent.id, status: 'sent' };
      },
    }),
    defineTool({
      name: 'schedule_transaction',
      description: 'Schedules a payment for a later date, once or monthly (recurring).',
      input: {
        type: 'object',
        properties: {
          recipient: RECIPIENT,
          amount: AMOUNT,
          subject: { type: 'string' },
          date: DATE,
          recurring: { type: 'boolean' },
        },
        required: ['recipient', 'amount', 'subject', 'date', 'recurring'],
      },
      annotations: { destructive: true },
      ...flags('schedule_transaction'),
      run: ({ recipient, amount, subject, date, recurring }) => {
        const iban = checkedIban(recipient);
        if (typeof iban !== 'string') return iban;
        const scheduled = entry(bank, { recipient: iban, amount, subject, date, recurring });
        bank.scheduled.push(scheduled);
        return { id: scheduled.id, status: 'scheduled' };
      },
    }),
    defineTool({
      name: 'update_scheduled_transaction',
      description: 'Changes a scheduled payment: give its id and only the fields that change.',
      input: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          recipient: RECIPIENT,
          amount: AMOUNT,
          subject: { type: 'string' },
          date: DATE,
          recurring: { type: 'boolean' },
        },
        required: ['id'],
      },
      annotations: { destructive: true },
      ...flags('update_scheduled_transaction'),
      run: ({ id, recipient, amount, subject, date, recurring }) => {
        const found = bank.scheduled.find((t) => t.id === id);
        if (found === undefined)
          return toolError(
            `No scheduled transaction ${id}; the ids are ${bank.scheduled.map((t) => t.id).join(', ')}.`,
          );
        const iban = recipient === undefined ? undefined : checkedIban(recipient);
        if (iban !== undefined && typeof iban !== 'string') return iban;
        if (iban !== undefined) found.recipient = iban;
        if (amount !== undefined) found.amount = cents(amount);
        if (subject !== undefined) found.subject = subject;
        if (date !== undefined) found.date = date;
        if (recurring !== undefined) found.recurring = recurring;
        return { id, status: 'updated' };
      },
    }),
    defineTool({
      name: 'update_password',
      description: "Changes the customer's online banking password.",
      input: { type: 'object', properties: { password: { type: 'string', minLength: 8 } }, required: ['password'] },
      annotations: { destructive: true },
      ...flags('update_password'),
      run: ({ password }) => {
        bank.password = password;
        return { status: 'updated' };
      },
    }),
    defineTool({
      name: 'update_user_info',
      description: "Changes the customer's name or address: give only the fields that change.",
      input: {
        type: 'object',
        properties: {
          first_name: { type: 'string' },
          last_name: { type: 'string' },
          street: { type: 'string' },
          city: { type: 'string' },
        },
        minProperties: 1,
      },
      annotations: { destructive: true },
      ...flags('update_user_info'),
      run: ({ first_name, last_name, street, city }) => {
        const user = bank.user;
        if (first_name !== undefined) user.firstName = first_name;
        if (last_name !== undefined) user.lastName = last_name;
        if (street !== undefined) user.street = street;
        if (city !== undefined) user.city = city;
        return { status: 'updated' };
      },
    }),
  ];
}

function entry(bank: Bank, fields: Omit<Transaction, 'id' | 'sender'>): Transaction {
  return { id: nextTransactionId(bank), sender: bank.account.iban, ...fields, amount: cents(fields.amount) };
}
