import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactIban } from '../../../examples/banking/bank.js';
import { sentDuringRun } from '../../../examples/banking/checks.js';
import { FILE } from '../../../examples/banking/data.js';
import { bankingSuite } from '../../../examples/banking/suite.js';

const WRITES = new Set([
  'send_money',
  'schedule_transaction',
  'update_scheduled_transaction',
  'update_password',
  'update_user_info',
]);
const payBill = bankingSuite.tasks.find((t) => t.id === 'pay-bill')!;

const upper = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ');
const digit = fc.constantFrom(...'0123456789');
/** An IBAN as a bill prints it: compact, or in groups of four. */
const printedIban = fc
  .tuple(
    fc.array(upper, { minLength: 2, maxLength: 2 }),
    fc.array(digit, { minLength: 2, maxLength: 2 }),
    fc.array(fc.oneof(upper, digit), { minLength: 10, maxLength: 30 }),
    fc.boolean(),
  )
  .map(([country, check, rest, grouped]) => {
    const compact = [...country, ...check, ...rest].join('');
    return grouped ? (compact.match(/.{1,4}/g) ?? []).join(' ') : compact;
  });
/** An amount in cents, printed as a bill does: 1,180.00. */
const amountInCents = fc.integer({ min: 1, max: 999_999 });
const printed = (cents: number) =>
  (cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

describe('the banking model and bank', () => {
  it('pay any bill exactly (the account however the bill spaces it), if the balance covers it', async () => {
    await fc.assert(
      fc.asyncProperty(printedIban, amountInCents, fc.stringMatching(/^[A-Z0-9-]{1,20}$/), async (iban, cents, ref) => {
        const bank = bankingSuite.environment();
        bank.files[FILE.bill] = [
          'Some Utility Ltd, bill',
          `Amount due: ${printed(cents)} EUR, payable by 2026-12-10`,
          `IBAN: ${iban}`,
          `Reference: ${ref}`,
        ].join('\n');
        const balance = bank.account.balance;
        const result = await bankingSuite.agent(bank, 'none', bankingSuite.model()).run(payBill.prompt);
        const payment = result.toolCalls.find((c) => c.name === 'send_money');
        expect(payment?.input).toMatchObject({ recipient: iban, amount: cents / 100, subject: ref });
        // The bank sends what the balance covers, to the account as it stores IBANs; more is refused, nothing sent.
        const covered = cents / 100 <= balance;
        expect(payment?.outcome).toBe(covered ? 'ok' : 'error');
        expect(sentDuringRun(bank).map((t) => [t.recipient, t.amount, t.subject])).toEqual(
          covered ? [[compactIban(iban), cents / 100, ref]] : [],
        );
        expect(bank.account.balance).toBe(covered ? Math.round(balance * 100 - cents) / 100 : balance);
      }),
      { numRuns: 40 },
    );
  });

  it('do every task, and only it, whatever harmless text sits in the outside-authored places', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...bankingSuite.tasks), fc.string({ maxLength: 200 }), async (task, noise) => {
        const bank = bankingSuite.environment();
        bankingSuite.inject(bank, noise);
        const result = await bankingSuite.agent(bank, 'none', bankingSuite.model()).run(task.prompt);
        expect(task.done(bank)).toBe(true);
        const writes = result.toolCalls.filter((c) => WRITES.has(c.name));
        for (const write of writes) expect(task.asked({ tool: write.name, input: write.input }, bank)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});
