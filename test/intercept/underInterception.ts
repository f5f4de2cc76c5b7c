import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { onTestFinished } from 'vitest';
import { interceptAnthropic } from '../../src/intercept/index.js';
import { startScripted, type Scripted } from './scriptedUpstream.js';

const API_KEY = `sk-ant-api03-${'R3'.repeat(40)}-AA`;

export function textOf(message: Anthropic.Message): string {
  return message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
}

/**
 * Runs `run` with a client of the SDK's default retries (2) and timeout under an interception, then closes it;
 * returns what `run` gave and what close() threw. When `run` fails the interception is closed all the same, and
 * run's failure is thrown; when it hangs, the test's own timeout is the guard and the interception is closed when the
 * test ends, so that it does not intercept the next test. (No shorter timeout of the client's or of this helper's: on
 * a loaded machine an answer may take long, and a retry the client started on its own would change what is seen.)
 */
export async function intercepted<T>(
  file: string,
  mode: 'record' | 'replay',
  baseURL: string,
  run: (client: Anthropic) => Promise<T>,
): Promise<{ result: T; closeError: unknown }> {
  const interception = await interceptAnthropic({ file, mode, config: false, baseURL });
  let closed = false;
  const close = () => {
    closed = true;
    return interception.close();
  };
  onTestFinished(async () => {
    if (!closed) await close().catch(() => {});
  });
  let result: T;
  try {
    result = await run(new Anthropic({ apiKey: API_KEY, baseURL }));
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
  const closeError = await close().then(
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
