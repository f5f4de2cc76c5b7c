import { Agent, ScriptedTransport, defineTool, reply, type ClaimRecord, type Suspension } from '../../src/index.js';

/** The suspension of a run whose one privileged call (`pay`) waits for approval: what store tests save and claim. */
export async function aSuspension(): Promise<Suspension> {
  const pay = defineTool({
    name: 'pay',
    description: 'P.',
    privileged: true,
    input: { type: 'object', properties: {} },
    run: () => 'paid',
  });
  const agent = new Agent({
    name: 'payer',
    model: 'm',
    tools: [pay],
    transport: new ScriptedTransport([reply.toolUse('pay', {})]),
    approvalRequired: () => true,
  });
  return (await agent.run('pay')).suspension!;
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
