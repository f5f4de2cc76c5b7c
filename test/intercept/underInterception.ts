import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { interceptAnthropic } from '../../src/intercept/index.js';
import { startScripted, type Scripted } from './scriptedUpstream.js';

const API_KEY = `sk-ant-api03-${'R3'.repeat(40)}-AA`;
/** The client's timeout per attempt: a stalled request fails fast instead of after the SDK's 10 minutes. */
const CLIENT_TIMEOUT_MS = 5_000;
/**
 * A hang guard, not a speed check: what has not settled by then is stuck (a retry that never starts
 * is not covered by the client's timeout), and the interception must still be closed.
 */
const HANG_GUARD_MS = 12_000;

export function textOf(message: Anthropic.Message): string {
  return message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
}

/** The promise's outcome, or a rejection when it has not settled after HANG_GUARD_MS (it hangs). */
export function settled<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still pending after ${HANG_GUARD_MS} ms: it hangs`)), HANG_GUARD_MS);
  });
  return Promise.race([promise, hang]).finally(() => clearTimeout(timer));
}

/**
 * Runs `run` with a client of the SDK's default retries (2) under an interception, then closes it;
 * returns what `run` gave and what close() threw. When `run` fails (or hangs) the interception is
 * closed all the same, so that it does not intercept the next test, and run's failure is thrown.
 */
export async function intercepted<T>(
  file: string,
  mode: 'record' | 'replay',
  baseURL: string,
  run: (client: Anthropic) => Promise<T>,
): Promise<{ result: T; closeError: unknown }> {
  const interception = await interceptAnthropic({ file, mode, config: false, baseURL });
  let result: T;
  try {
    result = await settled(run(new Anthropic({ apiKey: API_KEY, baseURL, timeout: CLIENT_TIMEOUT_MS })));
  } catch (error) {
    await interception.close().catch(() => {});
    throw error;
  }
  const closeError = await interception.close().then(
    () => undefined,
    (error: unknown) => error,
  );
  return { result, closeError };
}

/**
 * Records `run` into a file in `dir` against a stand-in API scripted with `answers`; returns run's
 * result, what close() threw, the requests seen, the file and the stand-in's (closed) URL.
 */
export async function recordAgainst<T>(
  dir: string,
  answers: readonly Scripted[],
  run: (client: Anthropic) => Promise<T>,
) {
  const upstream = await startScripted(answers);
  const file = join(dir, 'retried.yaml');
  try {
    return { ...(await intercepted(file, 'record', upstream.url, run)), seen: upstream.seen, file, url: upstream.url };
  } finally {
    await upstream.close();
  }
}
