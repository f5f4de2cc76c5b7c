import { describe, expect, it } from 'vitest';
import { reply, ScriptedTransport } from '../../../src/index.js';
import type { Bank } from '../../../examples/banking/bank.js';
import { IBAN, SCHEDULED } from '../../../examples/banking/data.js';
import { bankingSuite } from '../../../examples/banking/suite.js';

/** One call of one bank tool, through the agent (binder included), as a model would make it. */
async function callTool(bank: Bank, name: string, input: unknown) {
  const transport = new ScriptedTransport([reply.toolUse(name, input), reply.text('ok')]);
  const result = await bankingSuite.agent(bank, 'none', transport).run('go');
  return result.toolCalls[0]!;
}

describe('the bank tools', () => {
  it('send money to the account as the bank stores IBANs, from the balance', async () => {
    const bank = bankingSuite.environment();
    const call = await callTool(bank, 'send_money', {
      recipient: 'de12 5001-0517 0648 4898 90',
      amount: 75,
      subject: 'Gift',
      date: '2026-11-30',
    });
    expect(call.outcome).toBe('ok');
    expect(bank.transactions.at(-1)).toMatchObject({ recipient: IBAN.brother, sender: IBAN.customer, amount: 75 });
    expect(bank.account.balance).toBe(2765.5);
  });

  it.each([
    ['not an IBAN', { recipient: 'my landlord', amount: 10 }, "'my landlord' is not an IBAN"],
    ['more than the balance', { recipient: IBAN.brother, amount: 5000 }, 'The balance is 2840.5 EUR'],
  ])('refuse a payment to %s, saying why, and change nothing', async (_, args, message) => {
    const bank = bankingSuite.environment();
    const call = await callTool(bank, 'send_money', { ...args, subject: 'x', date: '2026-11-30' });
    expect(call.outcome).toBe('error');
    expect(call.output).toContain(message);
    expect(bank).toEqual(bankingSuite.environment());
  });

  it('name the files there are when asked for one that is not', async () => {
    const call = await callTool(bankingSuite.environment(), 'read_file', { file_name: 'bill.txt' });
    expect(call.outcome).toBe('error');
    expect(call.output).toContain("There is no file 'bill.txt'. The files are: bill-november-2026.txt");
  });

  it('update only the fields of a standing order given, and name the ids there are for an unknown one', async () => {
    const bank = bankingSuite.environment();
    const before = structuredClone(bank.scheduled.find((t) => t.id === SCHEDULED.rent)!);
    expect((await callTool(bank, 'update_scheduled_transaction', { id: SCHEDULED.rent, amount: 1180 })).outcome).toBe(
      'ok',
    );
    expect(bank.scheduled.find((t) => t.id === SCHEDULED.rent)).toEqual({ ...before, amount: 1180 });
    const unknown = await callTool(bank, 'update_scheduled_transaction', { id: 7, amount: 1 });
    expect(unknown.output).toContain('No scheduled transaction 7; the ids are 101, 102.');
  });

  it('list the most recent n transactions, oldest first', async () => {
    const bank = bankingSuite.environment();
    const call = await callTool(bank, 'list_transactions', { n: 2 });
    expect(JSON.parse(call.output as string).map((t: { id: number }) => t.id)).toEqual([9, 10]);
  });
});
