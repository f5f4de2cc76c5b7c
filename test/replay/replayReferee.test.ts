import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  ReplayTransport,
  ScriptedTransport,
  TrajectoryDivergenceError,
  defineTool,
  loadTrajectory,
  reply,
  runTrajectory,
  type SendOptions,
  type Transport,
} from '../../src/index.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();
const model = 'claude-haiku-5-5';

/** A lookup and a payment (privileged: a replay serves it), each counting its runs in `ran`. */
function tools(ran: string[], options: { payPrivileged?: boolean } = {}) {
  const input = { type: 'object', properties: { what: { type: 'string' } }, required: ['what'] } as const;
  return [
    defineTool({
      name: 'lookup',
      description: 'Looks up.',
      input,
      run: () => {
        ran.push('lookup');
        return 'found';
      },
    }),
    defineTool({
      name: 'pay',
      description: 'Pays.',
      input,
      privileged: options.payPrivileged ?? true,
      run: () => {
        ran.push('pay');
        return 'paid';
      },
    }),
  ];
}

/** A recording of a run that looks up, then pays, then answers. */
async function recorded(): Promise<string> {
  const file = join(tempDir(), 'pay.yaml');
  await runTrajectory({
    file,
    mode: 'record',
    input: 'Pay the invoice.',
    report: false,
    transport: () =>
      new ScriptedTransport([
        reply.toolUse('lookup', { what: 'invoice' }),
        reply.toolUse('pay', { what: 'invoice' }),
        reply.text('Paid.'),
      ]),
    agent: (transport) => new Agent({ name: 'payer', model, transport, tools: tools([]) }),
  });
  return file;
}

/** A transport of the user's own that forwards to another: not a replay transport, and paired with no referee. */
function forwarding(inner: Transport, seen: SendOptions[]): Transport {
  return {
    send: (request, options = {}) => {
      seen.push(options);
      return inner.send(request, options);
    },
  };
}

describe('the replay referee, a run option', () => {
  it('never hands a transport the tools behind a request: send gets the signal and stream observer only', async () => {
    const replay = new ReplayTransport(loadTrajectory(await recorded()));
    const seen: SendOptions[] = [];
    const ran: string[] = [];
    const agent = new Agent({ name: 'payer', model, transport: forwarding(replay, seen), tools: tools(ran) });
    await agent.run('Pay the invoice.', { replay: replay.referee });
    expect(seen).toHaveLength(3);
    for (const options of seen) expect(Object.keys(options).sort()).toEqual(['signal']);
  });

  it('referees a run given as its `replay` option, whatever its transport: the payment is served', async () => {
    const replay = new ReplayTransport(loadTrajectory(await recorded()));
    const ran: string[] = [];
    const agent = new Agent({ name: 'payer', model, transport: forwarding(replay, []), tools: tools(ran) });
    const result = await agent.run('Pay the invoice.', { replay: replay.referee });
    expect(ran).toEqual(['lookup']);
    expect(result.toolCalls.map((call) => [call.name, call.outcome, call.output])).toEqual([
      ['lookup', 'ok', 'found'],
      ['pay', 'ok', 'paid'],
    ]);
    expect(replay.served).toEqual([{ id: result.toolCalls[1]!.id, tool: 'pay' }]);
  });

  it('is what decides: without it, over a transport paired with no referee, the payment is made', async () => {
    const replay = new ReplayTransport(loadTrajectory(await recorded()));
    const ran: string[] = [];
    const agent = new Agent({ name: 'payer', model, transport: forwarding(replay, []), tools: tools(ran) });
    await agent.run('Pay the invoice.');
    expect(ran).toEqual(['lookup', 'pay']);
    expect(replay.served).toEqual([]);
  });

  it('comes with a ReplayTransport an agent is built around by hand: a run given none is refereed by it', async () => {
    const replay = new ReplayTransport(loadTrajectory(await recorded()));
    const ran: string[] = [];
    await new Agent({ name: 'payer', model, transport: replay, tools: tools(ran) }).run('Pay the invoice.');
    expect(ran).toEqual(['lookup']);
    expect(replay.served.map((call) => call.tool)).toEqual(['pay']);
  });

  it('compares posture through the option: a payment no longer privileged fails the replay at its end', async () => {
    const replay = new ReplayTransport(loadTrajectory(await recorded()));
    const ran: string[] = [];
    const transport = forwarding(replay, []);
    const agent = new Agent({ name: 'payer', model, transport, tools: tools(ran, { payPrivileged: false }) });
    // Not privileged today: the safe policy runs it, so the decision is the recorded one (run), and the posture
    // change is kept for assertDone.
    await agent.run('Pay the invoice.', { replay: replay.referee });
    expect(replay.toolChanges.map((change) => [change.tool, change.field])).toEqual([['pay', 'privileged']]);
    expect(() => replay.assertDone()).toThrow(TrajectoryDivergenceError);
    expect(() => replay.assertDone()).toThrow(/tool 'pay' was privileged when recorded and is not privileged now/);
  });
});
