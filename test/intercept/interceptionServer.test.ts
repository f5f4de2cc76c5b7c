import { describe, expect, it } from 'vitest';
import { interceptWith } from '../../src/intercept/interceptionServer.js';

/** Intercepts with one handler, noting the stack trace limit its maker ran under; returns that limit. */
async function limitWhileMaking(): Promise<number> {
  let seen = Number.NaN;
  const server = await interceptWith(
    'limit.yaml',
    (msw) => {
      seen = Error.stackTraceLimit;
      return [msw.http.post('https://limit.test/v1/messages', () => Response.json({ ok: true }))];
    },
    false,
  );
  try {
    const answer = await fetch('https://limit.test/v1/messages', { method: 'POST', body: '{}' });
    expect(await answer.json()).toEqual({ ok: true });
  } finally {
    server.close();
  }
  return seen;
}

describe("an interception's handlers", () => {
  it('are made without stack traces, and the limit is put back as it was', async () => {
    const limit = Error.stackTraceLimit;
    expect(await limitWhileMaking()).toBe(0);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('after').stack?.split('\n').length).toBeGreaterThan(1);
  });

  it('are made with stack traces where the limit cannot be changed', async () => {
    const own = Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit')!;
    Object.defineProperty(Error, 'stackTraceLimit', { value: 7, writable: false, configurable: true });
    try {
      expect(await limitWhileMaking()).toBe(7);
    } finally {
      Object.defineProperty(Error, 'stackTraceLimit', own);
    }
  });

  it('put the limit back when making them throws', async () => {
    const limit = Error.stackTraceLimit;
    const failing = interceptWith(
      'throws.yaml',
      () => {
        throw new Error('no handlers');
      },
      false,
    );
    await expect(failing).rejects.toThrow('no handlers');
    expect(Error.stackTraceLimit).toBe(limit);
  });
});
