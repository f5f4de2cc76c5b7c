import { getEventListeners } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { abortable } from '../../src/runtime/abortable.js';

/** A promise settled from outside. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('abortable', () => {
  it('settles as the promise does while the signal is not aborted', async () => {
    const signal = new AbortController().signal;
    await expect(abortable(Promise.resolve(7), signal)).resolves.toBe(7);
    const failure = new Error('the tool failed');
    await expect(abortable(Promise.reject(failure), signal)).rejects.toBe(failure);
  });

  it('rejects at once with the reason of a signal already aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('stopped');
    controller.abort(reason);
    await expect(abortable(new Promise(() => {}), controller.signal)).rejects.toBe(reason);
  });

  it('on abort, rejects every promise still waiting with the reason and leaves the settled ones as they were', () => {
    return fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom('waits', 'resolves', 'rejects'), { maxLength: 12 }), async (fates) => {
        const controller = new AbortController();
        const reason = new Error('cancelled');
        const sources = fates.map(() => deferred<string>());
        const outcomes = sources.map(({ promise }) =>
          abortable(promise, controller.signal).then(
            (value) => ({ value }),
            (error: unknown) => ({ error }),
          ),
        );
        fates.forEach((fate, i) => {
          if (fate === 'resolves') sources[i]!.resolve(`value ${i}`);
          if (fate === 'rejects') sources[i]!.reject(`error ${i}`);
        });
        // Settled before the abort: a promise's own outcome reaches abortable's in a few microtask turns.
        for (let turn = 0; turn < 5; turn++) await Promise.resolve();
        controller.abort(reason);
        // A promise that settles after the abort changes nothing.
        for (const source of sources) source.resolve('too late');
        expect(await Promise.all(outcomes)).toEqual(
          fates.map((fate, i) =>
            fate === 'waits'
              ? { error: reason }
              : fate === 'resolves'
                ? { value: `value ${i}` }
                : { error: `error ${i}` },
          ),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('keeps one listener on a signal however many promises wait on it, one after another or together', async () => {
    const signal = new AbortController().signal;
    for (let i = 0; i < 50; i++) await abortable(Promise.resolve(i), signal);
    await Promise.all(Array.from({ length: 50 }, (_, i) => abortable(Promise.resolve(i), signal)));
    expect(getEventListeners(signal, 'abort').length).toBeLessThanOrEqual(1);
  });
});
