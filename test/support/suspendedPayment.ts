import {
  Agent,
  ScriptedTransport,
  defineTool,
  reply,
  type ClaimRecord,
  type ScriptedReply,
  type Suspension,
} from '../../src/index.js';

/** The agent whose one privileged call (`pay`) waits for approval; each payment its tool makes is pushed to `paid`. */
export function payer(paid: string[] = [], script: ScriptedReply[] = [reply.toolUse('pay', {})]): Agent {
  const pay = defineTool({
    name: 'pay',
    description: 'P.',
    privileged: true,
    input: { type: 'object', properties: {} },
    run: () => {
      paid.push('paid');
      return 'paid';
    },
  });
  return new Agent({
    name: 'payer',
    model: 'm',
    tools: [pay],
    transport: new ScriptedTransport(script),
    approvalRequired: () => true,
  });
}

/** The agent whose privileged `wire` waits for approval; each wire its tool makes is pushed to `effects`. */
export function treasurer(
  effects: string[],
  script: ScriptedReply[] = [reply.toolUse('wire', { amount: 250 })],
): Agent {
  const wire = defineTool({
    name: 'wire',
    description: 'Wires money.',
    privileged: true,
    input: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
    run: ({ amount }) => {
      effects.push(`wired ${amount}`);
      return 'Wired.';
    },
  });
  return new Agent({
    name: 'treasurer',
    model: 'm',
    tools: [wire],
    transport: new ScriptedTransport(script),
    approvalRequired: (tool) => tool.privileged,
  });
}

/** The suspension of a run whose one privileged call (`pay`) waits for approval: what store tests save and claim. */
export async function aSuspension(): Promise<Suspension> {
  return (await payer().run('pay')).suspension!;
}

/** A fresh claim of the suspension by the owner `test`, as a resume records it. */
export const claimFor = (suspension: Suspension): ClaimRecord => ({
  runId: suspension.runId,
  suspensionId: suspension.id,
  owner: 'test',
  claimedAt: new Date().toISOString(),
  status: 'claimed',
  decisions: {},
  calls: {},
});
