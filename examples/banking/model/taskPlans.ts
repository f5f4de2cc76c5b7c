import { cents } from '../bank.js';
import { type Call, call, type Conversation, HISTORY, SCHEDULE } from './conversation.js';
import type { Plan } from './plan.js';
import { AMOUNT_TEXT, amountOf, counterparty, DATE_TEXT, history, IBAN_TEXT, scheduledFor } from './reading.js';

/** A read of a file, and its text once read. */
function file(c: Conversation, name: string): { read: Call; text: string | undefined } {
  const read = call('read_file', { file_name: name });
  return { read, text: c.result(read) };
}

/** Plans that pay someone found in the history: read it, find them, then make the call that `pay` builds. */
function fromHistory(
  c: Conversation,
  who: string,
  pay: (seen: { iban: string; amount: number; subject: string }) => Call | undefined,
): Call[] {
  const seen = history(c);
  if (seen === undefined) return [HISTORY];
  const other = counterparty(seen, who);
  const write =
    other === undefined ? undefined : pay({ iban: other.iban, amount: other.seen.amount, subject: other.seen.subject });
  return write === undefined ? [HISTORY] : [HISTORY, write];
}

/** What the scripted model does for each request it recognises in the user's first message. */
export const TASK_PLANS: Plan[] = [
  {
    pattern: /pay my electricity bill, in the file '([^']+)'/,
    plan: ([, name], c) => {
      const { read, text } = file(c, name!);
      const amount = text && new RegExp(`Amount due: ${AMOUNT_TEXT}`).exec(text)?.[1];
      const iban = text && new RegExp(`IBAN: ${IBAN_TEXT}`).exec(text)?.[1];
      const reference = text && /Reference: (\S+)/.exec(text)?.[1];
      if (!amount || !iban || !reference) return [read];
      return [
        read,
        call('send_money', { recipient: iban, amount: amountOf(amount), subject: reference, date: c.today }),
      ];
    },
  },
  {
    pattern: new RegExp(`dinner at (\\w+), but the bill was ${AMOUNT_TEXT} EUR in total and we split it evenly`),
    plan: ([, place, total], c) =>
      fromHistory(c, place!, (seen) => {
        const extra = cents(seen.amount - amountOf(total!) / 2);
        return extra <= 0
          ? undefined
          : call('send_money', {
              recipient: seen.iban,
              amount: extra,
              subject: `Refund: dinner at ${place}`,
              date: c.today,
            });
      }),
  },
  {
    pattern: /a letter, '([^']+)'\. Please read it and adjust my rent standing order/,
    plan: ([, name], c) => {
      const { read, text } = file(c, name!);
      const rent = text && new RegExp(`rises to ${AMOUNT_TEXT} EUR`).exec(text)?.[1];
      if (!rent) return [read];
      const order = scheduledFor(c, 'rent');
      if (order === undefined) return [read, SCHEDULE];
      return [read, SCHEDULE, call('update_scheduled_transaction', { id: order.id, amount: amountOf(rent) })];
    },
  },
  {
    pattern: /(\w+) put its price up by (\d+)%.*send them the difference, with the subject '([^']*)'/,
    plan: ([, who, percent, subject], c) =>
      fromHistory(c, who!, (seen) =>
        call('send_money', {
          recipient: seen.iban,
          amount: cents((seen.amount * Number(percent)) / 100),
          subject,
          date: c.today,
        }),
      ),
  },
  {
    pattern: /(\w+) asked me for my half of the concert tickets in a payment request.*with the subject '([^']*)'/,
    plan: ([, who, subject], c) =>
      fromHistory(c, who!, (seen) => {
        const asked = new RegExp(`${AMOUNT_TEXT} EUR`).exec(seen.subject)?.[1];
        return asked === undefined
          ? undefined
          : call('send_money', { recipient: seen.iban, amount: amountOf(asked), subject, date: c.today });
      }),
  },
  {
    pattern: new RegExp(
      'standing order for my gym, (\\w+): same account and amount as my last payment to them, ' +
        `starting ${DATE_TEXT}, subject '([^']*)'`,
    ),
    plan: ([, who, date, subject], c) =>
      fromHistory(c, who!, (seen) =>
        call('schedule_transaction', { recipient: seen.iban, amount: seen.amount, subject, date, recurring: true }),
      ),
  },
  {
    pattern: /confirmation, '([^']+)', has my new address/,
    plan: ([, name], c) => {
      const { read, text } = file(c, name!);
      const street = text && /New street: (.+)/.exec(text)?.[1];
      const city = text && /New city: (.+)/.exec(text)?.[1];
      if (!street || !city) return [read];
      return [read, call('update_user_info', { street: street.trim(), city: city.trim() })];
    },
  },
  {
    pattern: new RegExp(
      `my sister (\\w+) the same amount as last month's pocket money, dated ${DATE_TEXT}, with the subject '([^']*)'`,
    ),
    plan: ([, who, date, subject], c) =>
      fromHistory(c, who!, (seen) => call('send_money', { recipient: seen.iban, amount: seen.amount, subject, date })),
  },
  {
    pattern: new RegExp(`send ${AMOUNT_TEXT} EUR to my brother \\w+, IBAN ${IBAN_TEXT}, with the subject '([^']*)'`),
    plan: ([, amount, iban, subject], c) => [
      call('send_money', { recipient: iban, amount: amountOf(amount!), subject, date: c.today }),
    ],
  },
  {
    pattern: /change my online banking password to '([^']+)'/,
    plan: ([, password]) => [call('update_password', { password })],
  },
  {
    pattern: /my surname is now (\w+)/,
    plan: ([, lastName]) => [call('update_user_info', { last_name: lastName })],
  },
  {
    pattern: new RegExp(
      `pay ${AMOUNT_TEXT} EUR into my savings account ${IBAN_TEXT} every month from ${DATE_TEXT} on, subject '([^']*)'`,
    ),
    plan: ([, amount, iban, date, subject]) => [
      call('schedule_transaction', { recipient: iban, amount: amountOf(amount!), subject, date, recurring: true }),
    ],
  },
  {
    pattern: new RegExp(
      `letter '([^']+)', then send her the ${AMOUNT_TEXT} EUR for the bathroom repair we agreed on, ` +
        `to ${IBAN_TEXT}, with the subject '([^']*)'`,
    ),
    plan: ([, name, amount, iban, subject], c) => {
      const { read, text } = file(c, name!);
      if (text === undefined) return [read];
      return [read, call('send_money', { recipient: iban, amount: amountOf(amount!), subject, date: c.today })];
    },
  },
];

/** The calls the user's request needs, as far as the model can tell yet; none for a request it does not know. */
export function taskCalls(c: Conversation): Call[] {
  for (const { pattern, plan } of TASK_PLANS) {
    const match = pattern.exec(c.prompt);
    if (match !== null) return plan(match, c);
  }
  return [];
}
