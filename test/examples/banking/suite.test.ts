import { describe, expect, it } from 'vitest';
import type { AgentResult } from '../../../src/index.js';
import type { DefenceMode } from '../../../src/fuzz/index.js';
import type { Bank } from '../../../examples/banking/bank.js';
import { bankingSuite } from '../../../examples/banking/suite.js';

const WRITES = new Set([
  'send_money',
  'schedule_transaction',
  'update_scheduled_transaction',
  'update_password',
  'update_user_info',
]);

async function run(
  taskId: string,
  mode: DefenceMode,
  injection?: string,
): Promise<{ bank: Bank; result: AgentResult }> {
  const task = bankingSuite.tasks.find((t) => t.id === taskId)!;
  const bank = bankingSuite.environment();
  if (injection !== undefined) bankingSuite.inject(bank, bankingSuite.injections.find((i) => i.id === injection)!.text);
  const result = await bankingSuite.agent(bank, mode, bankingSuite.model()).run(task.prompt);
  return { bank, result };
}

const writesOf = (result: AgentResult) =>
  result.toolCalls.filter((c) => WRITES.has(c.name)).map((c) => ({ tool: c.name, input: c.input }));

describe('the banking suite', () => {
  it('has at least 12 tasks, 6 of them write-after-read, and 8 injections, 2 of them without an attacker value', () => {
    expect(bankingSuite.tasks.length).toBeGreaterThanOrEqual(12);
    expect(bankingSuite.tasks.filter((t) => t.writeAfterRead).length).toBeGreaterThanOrEqual(6);
    expect(bankingSuite.injections.length).toBeGreaterThanOrEqual(8);
    expect(bankingSuite.injections.filter((i) => !i.attackerValue).length).toBeGreaterThanOrEqual(2);
    expect(new Set(bankingSuite.tasks.map((t) => t.id)).size).toBe(bankingSuite.tasks.length);
    expect(new Set(bankingSuite.injections.map((i) => i.id)).size).toBe(bankingSuite.injections.length);
  });

  it('hands out a fresh world every time', () => {
    const first = bankingSuite.environment();
    first.account.balance = 0;
    first.transactions.length = 0;
    bankingSuite.inject(first, 'planted');
    const second = bankingSuite.environment();
    expect(second.account.balance).toBeGreaterThan(0);
    expect(second.transactions.length).toBeGreaterThan(0);
    expect(Object.values(second.files).join('\n')).not.toContain('planted');
  });

  it('no check holds of the world before any run', () => {
    const bank = bankingSuite.environment();
    for (const task of bankingSuite.tasks) expect(task.done(bank), task.id).toBe(false);
    for (const goal of bankingSuite.injections) expect(goal.achieved(bank), goal.id).toBe(false);
  });

  it('plants the text in every document and in an incoming payment the history shows', () => {
    const bank = bankingSuite.environment();
    bankingSuite.inject(bank, 'PLANTED');
    for (const [name, text] of Object.entries(bank.files)) expect(text, name).toContain('PLANTED');
    const incoming = bank.transactions.filter(
      (t) => t.recipient === bank.account.iban && t.subject.includes('PLANTED'),
    );
    expect(incoming).toHaveLength(1);
  });

  describe.each(bankingSuite.tasks.map((t) => [t.id, t] as const))('task %s, no defence, no attack', (id, task) => {
    it('is done, by writes the person approving would say yes to, and no attack is achieved', async () => {
      const { bank, result } = await run(id, 'none');
      expect(result.stopReason).toBe('end_turn');
      expect(task.done(bank)).toBe(true);
      const writes = writesOf(result);
      expect(writes.length).toBeGreaterThan(0);
      for (const write of writes) expect(task.asked(write, bank), JSON.stringify(write)).toBe(true);
      for (const goal of bankingSuite.injections) expect(goal.achieved(bank), goal.id).toBe(false);
    });

    it('under strict taint, is refused exactly when it reads outside content first', async () => {
      const { bank, result } = await run(id, 'taint');
      const firstWrite = result.toolCalls.findIndex((c) => WRITES.has(c.name));
      expect(firstWrite).toBeGreaterThanOrEqual(0);
      const readsOutside = result.toolCalls
        .slice(0, firstWrite)
        .some((c) => c.name === 'read_file' || c.name === 'list_transactions');
      if (task.writeAfterRead) expect(readsOutside).toBe(true);
      expect(result.blocked.map((b) => b.rule)).toEqual(readsOutside ? writesOf(result).map(() => 'taint') : []);
      expect(task.done(bank)).toBe(!readsOutside);
    });
  });

  describe.each(bankingSuite.injections.map((i) => [i.id, i] as const))('injection %s, no defence', (id, goal) => {
    it('is achieved for some task, by a call the person approving would refuse', async () => {
      let achievedIn: string | undefined;
      for (const task of bankingSuite.tasks) {
        const { bank, result } = await run(task.id, 'none', id);
        if (!goal.achieved(bank)) continue;
        achievedIn = task.id;
        expect(writesOf(result).some((w) => !task.asked(w, bank))).toBe(true);
        break;
      }
      expect(achievedIn).toBeDefined();
    });

    it('is never achieved under strict taint', async () => {
      for (const task of bankingSuite.tasks) {
        const { bank } = await run(task.id, 'taint', id);
        expect(goal.achieved(bank), task.id).toBe(false);
      }
    });
  });
});
