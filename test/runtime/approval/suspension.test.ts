// What a suspension holds (src/runtime/approval/suspension.ts): how it is signed, what it saves of the calls
// answered before it, and the digest that binds each pending call to its input.
import { describe, expect, it } from 'vitest';
import { reply, type Suspension } from '../../../src/index.js';
import type { ToolCall } from '../../../src/runtime/agentResult.js';
import { hasValidSignature, serializable, signatureOf } from '../../../src/runtime/approval/suspension.js';
import { inputDigest } from '../../../src/runtime/approval/pendingCall.js';
import { refusal, SIGNING_KEY, useTwoPendingPayments } from '../../support/twoPendingPayments.js';

const { paid, agentFor, twoPending } = useTwoPendingPayments();

describe('signatures', () => {
  it('refuse a signature of the wrong length, or of the wrong kind, without throwing anything else', async () => {
    const { agent, suspension } = await twoPending({ signed: true });
    const signature = suspension.signature!;
    for (const wrong of [
      signature.slice(0, -2),
      `${signature}00`,
      '',
      'hmac-sha256:',
      42 as unknown as string,
      signature.toUpperCase(),
    ]) {
      const error = await refusal(agent.resume({ ...suspension, signature: wrong }, { approve: true }));
      expect(error.code).toBe('altered');
    }
    expect(paid).not.toHaveBeenCalled();
    await expect(agent.resume(suspension, { approve: true })).resolves.toMatchObject({ stopReason: 'end_turn' });
  });

  it('refuse a suspension signed under another key', async () => {
    const { agent, suspension } = await twoPending({ signed: true });
    const resigned = { ...suspension, signature: signatureOf(suspension, 'another key') };
    expect((await refusal(agent.resume(resigned, { approve: true }))).code).toBe('altered');
  });

  it('are an HMAC over the canonical contents, the signature itself left out, under a string or byte key', async () => {
    const { suspension } = await twoPending({ signed: true });
    expect(signatureOf(suspension, SIGNING_KEY)).toBe(suspension.signature);
    const { signature: _s, ...unsigned } = suspension;
    expect(signatureOf(unsigned as Suspension, SIGNING_KEY)).toBe(suspension.signature);
    expect(hasValidSignature(suspension, SIGNING_KEY)).toBe(true);
    expect(hasValidSignature(suspension, new TextEncoder().encode(SIGNING_KEY))).toBe(true);
    expect(hasValidSignature(suspension, 'another key')).toBe(false);
    expect(hasValidSignature(unsigned as Suspension, SIGNING_KEY)).toBe(false);
    // Key order does not matter; contents do.
    const reordered = Object.fromEntries(Object.entries(suspension).reverse()) as unknown as Suspension;
    expect(hasValidSignature(reordered, SIGNING_KEY)).toBe(true);
    expect(hasValidSignature({ ...suspension, createdAt: '2000-01-01T00:00:00.000Z' }, SIGNING_KEY)).toBe(false);
    expect(signatureOf(suspension, SIGNING_KEY)).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
  });
});

describe('what a suspension saves', () => {
  it(
    'reduces a thrown value of an earlier call in the batch to its class, as the model was told: its message may ' +
      'hold a credential',
    async () => {
      const agent = agentFor('payer', [
        reply.toolUses([
          { name: 'broken', input: {} },
          { name: 'send_payment', input: { amount: 1 } },
        ]),
        reply.text('ok'),
      ]);
      const { suspension } = await agent.run('go');
      expect(suspension!.batch.answered[0]!.error).toMatchObject({
        error: 'tool_failed',
        cause: { name: 'RangeError' },
      });
      expect(JSON.stringify(suspension)).not.toContain('out of paper');
      expect(JSON.parse(JSON.stringify(suspension))).toEqual(suspension);
    },
  );

  it('serializable: keeps a call without a thrown value as it is, and reduces any thrown value to its class', () => {
    const ok = { id: 'a', name: 't', outcome: 'ok' } as unknown as ToolCall;
    expect(serializable(ok)).toBe(ok);
    const other = { id: 'a', name: 't', outcome: 'error', error: { error: 'invalid_argument' } } as unknown as ToolCall;
    expect(serializable(other)).toBe(other);
    const thrown = {
      id: 'a',
      name: 't',
      outcome: 'error',
      error: { error: 'tool_failed', tool: 't', errorClass: 'String', message: 'm', cause: 'just text' },
    } as unknown as ToolCall;
    expect((serializable(thrown).error as { cause: unknown }).cause).toEqual({ name: 'string' });
    const number = { ...thrown, error: { ...(thrown.error as object), cause: 7 } } as unknown as ToolCall;
    expect((serializable(number).error as { cause: unknown }).cause).toEqual({ name: 'number' });
    const error = {
      ...thrown,
      error: { ...(thrown.error as object), cause: new TypeError('bad') },
    } as unknown as ToolCall;
    const reduced = serializable(error);
    expect((reduced.error as { cause: unknown }).cause).toEqual({ name: 'TypeError' });
    expect(reduced).toMatchObject({
      id: 'a',
      name: 't',
      outcome: 'error',
      error: { error: 'tool_failed', tool: 't', errorClass: 'String', message: 'm' },
    });
  });

  it('binds each pending call to a digest of its id, tool and input', async () => {
    const { suspension } = await twoPending();
    const [first, second] = suspension.pending;
    // No `taint` key at all on a call not held for taint.
    expect(first).toStrictEqual({
      id: 'toolu_s1_1',
      tool: 'send_payment',
      input: { amount: 10 },
      inputDigest: inputDigest('toolu_s1_1', 'send_payment', { amount: 10 }),
    });
    expect(second!.inputDigest).toBe(inputDigest('toolu_s1_3', 'send_payment', { amount: 20 }));
    expect(
      new Set([inputDigest('a', 't', 1), inputDigest('b', 't', 1), inputDigest('a', 'u', 1), inputDigest('a', 't', 2)])
        .size,
    ).toBe(4);
  });
});
