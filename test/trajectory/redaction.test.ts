import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversationsOf, withConversations } from '../../src/trajectory/conversationsOf.js';
import { createRedactor } from '../../src/trajectory/redaction.js';
import {
  Agent,
  defineTool,
  findSecret,
  loadTrajectory,
  reply,
  runTrajectory,
  saveTrajectory,
  ScriptedTransport,
  type AgentFactory,
  type Transport,
} from '../../src/index.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();
const SECRET = /ACME-PRIVATE-\d+/;

describe('redaction reaches object keys', () => {
  it('redacts a secret used as a key, at any depth, keeping both keys when two redact alike', () => {
    const redact = createRedactor([{ pattern: SECRET }]);
    const redacted = redact({
      'ACME-PRIVATE-1': 'a',
      nested: [{ 'id ACME-PRIVATE-2': { 'ACME-PRIVATE-3': true } }],
      '[REDACTED]': 'kept',
    });
    expect(JSON.stringify(redacted)).not.toMatch(SECRET);
    expect(redacted).toEqual({
      '[REDACTED]': 'kept',
      '[REDACTED] (2)': 'a',
      nested: [{ 'id [REDACTED]': { '[REDACTED]': true } }],
    });
  });

  it('saves a tool input whose key is a secret, redacted', () => {
    const trajectory = loadTrajectory('trajectories/handoff-to-billing.yaml');
    const block = trajectory.turns[0]!.response.content[0] as { toolUse: { input: Record<string, unknown> } };
    block.toolUse.input['ACME-PRIVATE-7731'] = 'on';
    const file = join(tempDir(), 'keys.yaml');
    saveTrajectory(file, trajectory, { redactions: [{ pattern: SECRET }], secrets: [SECRET] });
    expect(readFileSync(file, 'utf8')).not.toMatch(SECRET);
  });
});

describe("redaction reaches the handoff agents' header", () => {
  const refund = defineTool({
    name: 'refund_payment',
    description: 'Refunds.',
    input: { type: 'object', properties: {} },
    run: () => 'refunded',
  });
  const factory: AgentFactory = (transport: Transport) => {
    const billing = new Agent({
      name: 'billing',
      model: 'claude-haiku-5-5',
      system: 'You are billing; the vault code is ACME-PRIVATE-4242.',
      tools: [refund],
      transport,
    });
    return new Agent({
      name: 'triage',
      model: 'claude-haiku-5-5',
      system: 'Route customers.',
      transport,
      handoffs: [{ name: 'billing', agent: billing, description: 'Refunds.' }],
    });
  };
  const script = () =>
    new ScriptedTransport([
      reply.toolUse('handoff_to_billing', { reason: 'a refund' }),
      reply.toolUse('refund_payment', {}),
      reply.text('Refunded.'),
    ]);

  it("redacts every agent's system prompt when recording, and a replay with the same redactions matches", async () => {
    const file = join(tempDir(), 'handoff.yaml');
    const redactions = [{ pattern: SECRET, placeholder: '[VAULT]' }];
    await runTrajectory({
      file,
      agent: factory,
      input: 'Refund me.',
      mode: 'record',
      transport: script,
      redactions,
      secrets: [SECRET],
    });
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(SECRET);
    expect(loadTrajectory(file).agents?.billing?.request.system).toBe('You are billing; the vault code is [VAULT].');
    const replayed = await runTrajectory({ file, agent: factory, mode: 'replay', redactions });
    expect(replayed.result.text).toBe('Refunded.');
  });

  it('redacts the rest of each agent entry too: its name and tools', () => {
    const trajectory = loadTrajectory('trajectories/handoff-to-billing.yaml');
    const redacted = join(tempDir(), 'agents.yaml');
    saveTrajectory(redacted, trajectory, { redactions: [{ pattern: /issue_refund|billing team/ }] });
    const agents = loadTrajectory(redacted).agents!;
    expect(agents.billing!.request.system).toBe(
      'You are the [REDACTED]. Check invoices before refunding, and refund what was paid.',
    );
    expect(agents.billing!.tools.map((tool) => tool.name)).toEqual(['lookup_invoice', '[REDACTED]']);
  });
});

describe('path redaction reaches object tool outputs', () => {
  const profile = defineTool({
    name: 'fetch_profile',
    description: 'Fetches a profile.',
    input: { type: 'object', properties: { user: { type: 'string' } } },
    run: () => ({
      user: 'ada',
      card: { number: '4111111111111111', expiry: '12/29' },
      history: [{ card: { number: '5500000000000004' } }],
    }),
  });
  const factory: AgentFactory = (transport) =>
    new Agent({ name: 'profiles', model: 'claude-haiku-5-5', tools: [profile], transport });
  const script = () => new ScriptedTransport([reply.toolUse('fetch_profile', { user: 'ada' }), reply.text('Done.')]);

  it('redacts a key path inside the JSON a tool returned, and a replay with the same redactions matches', async () => {
    const file = join(tempDir(), 'profile.yaml');
    const redactions = [{ path: 'card.number' }];
    await runTrajectory({ file, agent: factory, input: 'Fetch ada', mode: 'record', transport: script, redactions });
    const content = loadTrajectory(file).turns[0]!.results![0]!.content;
    expect(content).toBe(
      '{"user":"ada","card":{"number":"[REDACTED]","expiry":"12/29"},"history":[{"card":{"number":"[REDACTED]"}}]}',
    );
    const replayed = await runTrajectory({ file, agent: factory, mode: 'replay', redactions });
    expect(replayed.result.text).toBe('Done.');
  });

  it('leaves text that is not JSON, or JSON the path does not reach, byte for byte', () => {
    const redact = createRedactor([{ path: 'card.number' }]);
    for (const text of ['{ "card": 1 }', '{not json', '[1, 2]', '{"card": {"expiry": "12/29"}}'])
      expect(redact(text)).toBe(text);
  });
});

describe('a sticky or global pattern behaves like any other', () => {
  const flags = ['', 'g', 'y', 'gy', 'i', 'giy', 'm', 'ym'] as const;

  it.each(flags.map((f) => [f]))('redacts every match, wherever it is, with flags "%s"', (f) => {
    const pattern = new RegExp('ACME-PRIVATE-\\d+', f);
    pattern.lastIndex = 5;
    const redact = createRedactor([{ pattern }]);
    expect(redact('ids: ACME-PRIVATE-1 and ACME-PRIVATE-2')).toBe('ids: [REDACTED] and [REDACTED]');
    expect(redact(['x ACME-PRIVATE-3', 'ACME-PRIVATE-4'])).toEqual(['x [REDACTED]', '[REDACTED]']);
  });

  it.each(flags.map((f) => [f]))('finds a declared secret anywhere, every time, with flags "%s"', (f) => {
    const pattern = new RegExp('ACME-PRIVATE-\\d+', f);
    pattern.lastIndex = 30;
    for (let i = 0; i < 3; i++) expect(findSecret('a long preamble, then ACME-PRIVATE-9', [pattern])).toBeDefined();
  });

  it('property: for any text and flags, redacted text holds no match and a scan finds one where there was one', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.constant('ACME-PRIVATE-77'))),
        fc.subarray(['g', 'y', 'i', 'm', 's']),
        fc.nat(40),
        (parts, chosen, lastIndex) => {
          const text = parts.join(' ');
          const pattern = new RegExp('ACME-PRIVATE-\\d+', chosen.join(''));
          pattern.lastIndex = lastIndex;
          expect(createRedactor([{ pattern }])(text)).not.toMatch(/ACME-PRIVATE-\d/);
          expect(findSecret(text, [pattern]) !== undefined).toBe(/ACME-PRIVATE-\d/.test(text));
        },
      ),
    );
  });
});

describe('redaction reaches every conversation of a file', () => {
  it("redacts a further conversation's input, system prompt and turns as it redacts the first's", () => {
    const first = loadTrajectory('trajectories/refusal.yaml');
    const second = structuredClone(first);
    second.request = { ...second.request, system: 'The vault code is ACME-PRIVATE-4242.' };
    second.input = [{ type: 'text', text: 'Use ACME-PRIVATE-1717.' }];
    second.turns[0]!.response.content = [{ text: 'Done with ACME-PRIVATE-9393.' }];
    const file = join(tempDir(), 'two.yaml');
    saveTrajectory(file, withConversations([first, second]), { redactions: [{ pattern: SECRET }] });
    const saved = readFileSync(file, 'utf8');
    expect(saved).not.toMatch(SECRET);
    const [, again] = conversationsOf(loadTrajectory(file));
    expect(again?.request.system).toBe('The vault code is [REDACTED].');
    expect(again?.input).toEqual([{ type: 'text', text: 'Use [REDACTED].' }]);
  });
});
