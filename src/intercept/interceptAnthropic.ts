import { httpBase } from './httpBase.js';
import { UsageError } from '../errors/UsageError.js';
import { describeValue } from '../json/describeValue.js';
import { interceptWith, loadMsw } from './interceptionServer.js';
import { runInterceptBody, type InterceptBody, type InterceptionRun } from './interceptBody.js';
import { openSession, type Interception, type SampleOptions, type SessionOptions } from './interceptSession.js';
import { whyNothingArrived, watchForMisses } from './missedTraffic.js';

export interface InterceptOptions extends SessionOptions {
  /**
   * The API's base URLs intercepted, besides `https://api.anthropic.com`, `ANTHROPIC_BASE_URL` and
   * `ANTHROPIC_API_URL`: the `baseURL` the client was given. `POST <base>/v1/messages` is recorded and replayed,
   * and `POST <base>/messages` where the base ends in `/v1` (the AI SDK's convention), whatever the query string.
   */
  baseURL?: string | readonly string[];
  /** Requests to anything else, in replay: refused (the default, nothing reaches the network) or passed. */
  otherHosts?: 'refuse' | 'pass';
}

export type { Interception };

const DEFAULT_BASE = 'https://api.anthropic.com';

/** The variables clients read their base URL from when given none. */
const ENVIRONMENT_BASES = ['ANTHROPIC_BASE_URL', 'ANTHROPIC_API_URL'] as const;

/** interceptAnthropic's options with a body: those of one sample, and how many samples, passing by which rule. */
export interface SampledInterceptOptions extends InterceptOptions, SampleOptions {}

/**
 * Records or replays the Messages API traffic of any client in the process (the Anthropic SDK, or
 * anything calling `fetch` or Node's http), at the HTTP boundary through msw's interception: no
 * proxy, no patching of the client. Modes and settings resolve as for runTrajectory. A client in another
 * process is recorded through the recording proxy instead (startRecordingProxy).
 *
 * Without a body it returns the interception in force, to close once the code under test is done. With one (the code
 * under test and its assertions, as a function), it runs the body once per sample, recording `samples` runs into the
 * one file or replaying each sample the file holds, and closes: the file passes by `pass` (see runInterceptBody).
 */
export async function interceptAnthropic(options: InterceptOptions): Promise<Interception>;
export async function interceptAnthropic(
  options: SampledInterceptOptions,
  body: InterceptBody,
): Promise<InterceptionRun>;
export async function interceptAnthropic(
  options: SampledInterceptOptions,
  body?: InterceptBody,
): Promise<Interception | InterceptionRun> {
  const bases = basesOf(options.baseURL);
  const otherHosts = options.otherHosts ?? 'refuse';
  if (otherHosts !== 'refuse' && otherHosts !== 'pass')
    throw new UsageError(
      'invalid_intercept_option',
      `interceptAnthropic's otherHosts must be 'refuse' or 'pass', but it was ${JSON.stringify(otherHosts)}.`,
    );
  if (body !== undefined && typeof body !== 'function')
    throw new UsageError(
      'invalid_intercept_option',
      `interceptAnthropic's second argument, the body, must be a function (the code under test, run once per ` +
        `sample), but it was ${describeValue(body)}.`,
    );
  // Without msw nothing can be intercepted: said before anything about the file.
  const session = await openSession(options, { before: loadMsw, body: body !== undefined });
  const { mode, file } = session;
  if (mode === 'passthrough') {
    if (body !== undefined) return runInterceptBody(session, body, () => '');
    return { mode, file, trajectory: undefined, close: async () => {} };
  }
  const urls = bases
    .flatMap((base) => (base.endsWith('/v1') ? [`${base}/messages`] : []))
    .concat(bases.map((base) => `${base}/v1/messages`));
  const misses = watchForMisses(urls);
  const server = await interceptWith(
    file,
    (msw) => [
      ...urls.map((url) => msw.http.post(url, ({ request }) => session.answer(request, msw.bypass))),
      misses.handler(msw),
    ],
    mode === 'replay' && otherHosts === 'refuse',
  );
  const stop = () => {
    server.close();
    misses.stop();
  };
  if (body !== undefined) {
    try {
      return await runInterceptBody(session, body, () => whyNothingArrived(misses.seen()));
    } finally {
      stop();
    }
  }
  return {
    mode,
    file,
    get trajectory() {
      return session.trajectory;
    },
    close: async () => {
      stop();
      await session.close(whyNothingArrived(misses.seen()));
    },
  };
}

/**
 * The base URLs intercepted: the API's, the `baseURL`s given, and those clients read from the environment when
 * given none, read as they read them (trimmed, ignored when empty): `ANTHROPIC_BASE_URL` (the Anthropic SDK, the
 * AI SDK, Claude Code) and `ANTHROPIC_API_URL` (LangChain.js, which reads it first).
 */
function basesOf(baseURL: InterceptOptions['baseURL'], env: NodeJS.ProcessEnv = process.env): string[] {
  const given = baseURL === undefined ? [] : typeof baseURL === 'string' ? [baseURL] : [...baseURL];
  const fromEnv = ENVIRONMENT_BASES.flatMap((name) => {
    const base = env[name]?.trim();
    return base ? [{ base, source: name }] : [];
  });
  const named = [
    ...[DEFAULT_BASE, ...given].map((base) => ({ base, source: "interceptAnthropic's baseURL" })),
    ...fromEnv,
  ];
  const bases = named.map(({ base, source }) => httpBase(base, source));
  return [...new Set(bases)];
}
