/**
 * Settles with the promise, or rejects with the signal's reason as soon as it aborts, so a
 * cancelled run stops promptly even when the code it awaits ignores the signal.
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const waiting = waitingOn(signal);
    waiting.add(reject);
    promise.then(
      (value) => {
        waiting.delete(reject);
        resolve(value);
      },
      (error: unknown) => {
        waiting.delete(reject);
        reject(error);
      },
    );
  });
}

/**
 * What each signal's abort rejects: the promises still waiting on it, in the order they began. One listener per
 * signal, added when the first waits (a run's signal serves every model call and tool call of the run), instead of a
 * listener added and removed per promise, which costs more than the rest of a replayed tool call.
 */
const waitingBySignal = new WeakMap<AbortSignal, Set<(reason: unknown) => void>>();

function waitingOn(signal: AbortSignal): Set<(reason: unknown) => void> {
  let waiting = waitingBySignal.get(signal);
  if (waiting === undefined) {
    const rejects = new Set<(reason: unknown) => void>();
    const onAbort = () => {
      for (const reject of rejects) reject(signal.reason);
      rejects.clear();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    waitingBySignal.set(signal, rejects);
    waiting = rejects;
  }
  return waiting;
}
