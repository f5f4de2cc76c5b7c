import { beforeEach, expect, vi } from 'vitest';
import {
  Agent,
  ScriptedTransport,
  SuspensionError,
  defineTool,
  reply,
  type ApprovalDecision,
  type Suspension,
} from '../../src/index.js';
import { paymentTool } from './paymentTool.js';

/** The key a signing agent of these tests holds; a store that keeps its suspensions does not. */
export const SIGNING_KEY = 'the agent holds this key; the store does not';

type Script = ConstructorParameters<typeof ScriptedTransport>[0];

/**
 * The agents of the resume tests: whoever is named, with a privileged `send_payment` that waits for approval (each
 * payment recorded by `paid`), a `lookup` and a `broken` tool that throws; and `twoPending`, a run of `payer` stopped
 * on two payments in one response with a lookup between them. Tools and agents are built before each test, so their
 * schemas are compiled while a mutation run has that test's mutant active, not once at module load.
 */
export function useTwoPendingPayments() {
  const paid = vi.fn((args: { amount: number }) => `Paid $${args.amount}.`);
  let build: (name: string, script: Script, options?: { signed?: boolean }) => Agent = () => {
    throw new Error('useTwoPendingPayments: agents are built inside a test');
  };

  beforeEach(() => {
    paid.mockReset();
    paid.mockImplementation((args: { amount: number }) => `Paid $${args.amount}.`);
    const { pay } = paymentTool(paid);
    const lookup = defineTool({
      name: 'lookup',
      description: 'L.',
      input: { type: 'object', properties: {} },
      run: () => 'balance: $500',
    });
    const broken = defineTool({
      name: 'broken',
      description: 'B.',
      input: { type: 'object', properties: {} },
      run: () => {
        throw new RangeError('out of paper');
      },
    });
    build = (name, script, options = {}) =>
      new Agent({
        name,
        model: 'claude-haiku-5-5',
        tools: [pay, lookup, broken],
        transport: new ScriptedTransport(script),
        approvalRequired: (tool) => tool.privileged,
        ...(options.signed === true ? { suspensionKey: SIGNING_KEY } : {}),
      });
  });

  /** An agent of the given name with the tools above, answering from the script. */
  const agentFor = (name: string, script: Script, options?: { signed?: boolean }) => build(name, script, options);

  /** A run of `payer` stopped on two payments in one response, a lookup between them. */
  async function twoPending(options: { signed?: boolean } = {}) {
    const agent = agentFor(
      'payer',
      [
        reply.toolUses([
          { name: 'send_payment', input: { amount: 10 } },
          { name: 'lookup', input: {} },
          { name: 'send_payment', input: { amount: 20 } },
        ]),
        reply.text('Handled.'),
      ],
      options,
    );
    const { suspension } = await agent.run('Pay both invoices.');
    return { agent, suspension: suspension! };
  }

  return { paid, agentFor, twoPending };
}

/** A decision on the suspension's pending call at `index`, for the input it was suspended with. */
export function decision(suspension: Suspension, index: number, approve: boolean, reason?: string): ApprovalDecision {
  const pending = suspension.pending[index]!;
  return { id: pending.id, inputDigest: pending.inputDigest, approve, ...(reason === undefined ? {} : { reason }) };
}

/** The blocks of the suspension's last message: the response whose calls wait. */
export function lastBlocks(suspension: Suspension): { type: string; id?: string; name?: string; input?: unknown }[] {
  const last = suspension.state.messages[suspension.state.messages.length - 1]!;
  return last.content as { type: string; id?: string; name?: string; input?: unknown }[];
}

/** The SuspensionError a resume was refused with (failing the test if it was not refused with one). */
export async function refusal(promise: Promise<unknown>): Promise<SuspensionError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SuspensionError);
  return error as SuspensionError;
}
