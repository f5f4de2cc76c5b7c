import { vi } from 'vitest';
import { defineTool } from '../../src/index.js';

/**
 * The approval tests' privileged tool: `send_payment` with an amount, and the spy behind it
 * that records each payment. Defined afresh where asked, so a mutation run that activates a
 * mutant per test compiles its schema under that mutant.
 */
export function paymentTool(paid = vi.fn((args: { amount: number }) => `Paid $${args.amount}.`)) {
  const pay = defineTool({
    name: 'send_payment',
    description: 'Pays.',
    privileged: true,
    input: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
    run: (args) => paid(args),
  });
  return { pay, paid };
}
