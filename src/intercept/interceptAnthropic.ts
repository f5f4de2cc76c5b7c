import { existsSync } from 'node:fs';
import { basename, extname, isAbsolute, relative } from 'node:path';
import { UsageError } from '../errors/UsageError.js';
import { parseModelResponse } from '../messages/parseModelResponse.js';
import type { MessagesRequest } from '../messages/types.js';
import type { RecordingMode } from '../recording/mode.js';
import { loadProject } from '../replay/projectConfig.js';
import { resolveReplaySettings } from '../replay/replaySettings.js';
import { sdkVersion } from '../recording/sdkVersion.js';
import {
  loadTrajectory,
  prepareTrajectory,
  recordFirst,
  saveTrajectory,
  type SaveOptions,
} from '../trajectory/trajectoryFile.js';
import type { MatchLevel } from '../trajectory/matchLevel.js';
import type { ReplayRunner } from '../replay/rerecordCommand.js';
import { createRedactor, type Redaction } from '../trajectory/redaction.js';
import { serializeTrajectory } from '../trajectory/serialize.js';
import type { Trajectory } from '../trajectory/types.js';
import { messageOfEvents, parseSse, type Exchange } from './exchange.js';
import { forwardUpstream } from './forwardUpstream.js';
import { interceptWith, loadMsw, MADE_BEFORE } from './interceptionServer.js';
import { inPreviousOrder } from './previousOrder.js';
import { ExchangeReplay } from './replayExchanges.js';
import { trajectoryOfExchanges } from './trajectoryOfExchanges.js';

export interface InterceptOptions {
  /** The trajectory file: absolute, or relative to the project root (the config's folder). */
  file: string;
  /** `LEGATE_MODE` wins over this (see resolveMode). Without either: `replay` under CI, else `auto`. */
  mode?: RecordingMode;
  /**
   * The API's base URLs intercepted, besides `https://api.anthropic.com`: the `baseURL` the client
   * was given. Only `POST <base>/v1/messages` is recorded and replayed.
   */
  baseURL?: string | readonly string[];
  /** Requests to anything else, in replay: refused (the default, nothing reaches the network) or passed. */
  otherHosts?: 'refuse' | 'pass';
  /** How closely a replayed request must match. Default: the config's, else the file's `match:`, else `exact`. */
  match?: MatchLevel;
  /** Applied after the config's redactions, to the file and (the same way) to each request at replay. */
  redactions?: readonly Redaction[];
  /** Patterns beyond the built-in ones and the config's that must never be saved. */
  secrets?: readonly (RegExp | string)[];
  /** The project's config file, or `false` for none. Default: the nearest legate.config.* (see runTrajectory). */
  config?: string | false;
  /** Where the config is looked for and paths in messages are relative to. Default: `process.cwd()`. */
  cwd?: string;
  /** The trajectory's name. Default: the file name without its extension. */
  name?: string;
  /** The agent name the file records. Default: `intercepted`. */
  agent?: string;
  /**
   * Who runs the code under test, which decides the re-record command a divergence quotes. Default:
   * vitest (`LEGATE_MODE=record npx vitest run`) under vitest, else a program run again with `LEGATE_MODE=record`.
   */
  runner?: ReplayRunner;
}

/** Interception in force: close it once the code under test is done. */
export interface Interception {
  /** What the interception does: serve the file, record it, or neither (passthrough). */
  readonly mode: 'replay' | 'record' | 'passthrough';
  /** The trajectory file, absolute. */
  readonly file: string;
  /** The trajectory replayed, or (after close) the one written; absent for passthrough. */
  readonly trajectory: Trajectory | undefined;
  /**
   * Stops intercepting. In record mode writes the file (redacted, scanned for secrets, atomically;
   * left untouched when nothing but `recordedAt` would change). In replay mode throws the first
   * TrajectoryDivergenceError, or `unused_turns` when the code asked for fewer responses than recorded.
   */
  close(): Promise<void>;
}

const DEFAULT_BASE = 'https://api.anthropic.com';

/**
 * Records or replays the Messages API traffic of any client in the process (the Anthropic SDK, or
 * anything calling `fetch` or Node's http), at the HTTP boundary through msw's interception: no
 * proxy, no patching of the client. Modes and settings resolve as for runTrajectory.
 */
export async function interceptAnthropic(options: InterceptOptions): Promise<Interception> {
  const cwd = options.cwd ?? process.cwd();
  const project = await loadProject({ cwd, ...(options.config === undefined ? {} : { config: options.config }) });
  const bases = basesOf(options.baseURL);
  const otherHosts = options.otherHosts ?? 'refuse';
  if (otherHosts !== 'refuse' && otherHosts !== 'pass')
    throw new UsageError(
      'invalid_intercept_option',
      `interceptAnthropic's otherHosts must be 'refuse' or 'pass', but it was ${JSON.stringify(otherHosts)}.`,
    );
  const settingsFor = (trajectory?: Trajectory) =>
    resolveReplaySettings({
      given: options,
      project,
      cwd,
      ...(options.runner === undefined ? {} : { runner: options.runner }),
      ...(trajectory === undefined ? {} : { trajectory }),
    });
  const settings = settingsFor();
  const file = settings.file!;
  const shown = isAbsolute(options.file) ? options.file : relative(cwd, file) || file;
  const mode = settings.mode === 'auto' ? (existsSync(file) ? 'replay' : 'record') : settings.mode;
  if (mode === 'passthrough') return { mode, file, trajectory: undefined, close: async () => {} };
  // Without msw nothing can be intercepted: said before anything about the file.
  await loadMsw();
  const urls = bases.map((base) => `${base}/v1/messages`);

  if (mode === 'replay') {
    const trajectory = loadTrajectory(file, recordFirst(settings.rerecord));
    const replaySettings = settingsFor(trajectory);
    // The advice resolved without the file's agent: no factory replays a file recorded at the HTTP boundary.
    const replay = new ExchangeReplay(
      trajectory,
      { file: shown, rerecord: settings.rerecord },
      replaySettings.match,
      createRedactor(replaySettings.redactions),
    );
    const server = await interceptWith(
      file,
      (msw) =>
        urls.map((url) =>
          msw.http.post(url, async ({ request }) => {
            const answer = replay.answer((await request.json()) as MessagesRequest);
            if (answer.kind === 'json') return Response.json(answer.body);
            if (answer.kind === 'sse')
              return new Response(answer.body, { headers: { 'content-type': 'text/event-stream' } });
            // A 400 the client does not retry: it fails at once with the divergence as its message.
            return Response.json(
              { type: 'error', error: { type: 'invalid_request_error', message: answer.error.message } },
              { status: 400, headers: { 'x-should-retry': 'false' } },
            );
          }),
        ),
      otherHosts === 'refuse',
    );
    return {
      mode,
      file,
      trajectory,
      close: async () => {
        server.close();
        const failure = replay.finish();
        if (failure !== undefined) throw failure;
      },
    };
  }

  /** Each request's exchange, in the order the requests were sent; empty where no success came back. */
  const sent: (Exchange | undefined)[] = [];
  let unreadable: UsageError | undefined;
  const server = await interceptWith(
    file,
    (msw) =>
      urls.map((url) =>
        msw.http.post(url, async ({ request }) => {
          const body = (await request.clone().json()) as MessagesRequest;
          const slot = sent.push(undefined) - 1;
          const { response, received } = await forwardUpstream(request, msw.bypass);
          if (received?.ok === true) {
            // What cannot be read is kept for close(): the client still gets the answer as the API sent it
            // (a throw here would become msw's 500, which a client retries: a second call to the API).
            try {
              sent[slot] = exchangeOf(body, received.contentType, received.text);
            } catch (error) {
              unreadable ??= unreadableResponse(slot + 1, error);
            }
          }
          return response;
        }),
      ),
    false,
  );
  let written: Trajectory | undefined;
  return {
    mode,
    file,
    get trajectory() {
      return written;
    },
    close: async () => {
      server.close();
      if (unreadable !== undefined) throw unreadable;
      const exchanges = sent.filter((exchange) => exchange !== undefined);
      if (exchanges.length === 0)
        throw new UsageError(
          'nothing_to_record',
          `No Messages API request was intercepted, so ${shown} has nothing. ${MADE_BEFORE}`,
        );
      const previous = existsSync(file) ? tryLoad(file) : undefined;
      const recorded = trajectoryOfExchanges({
        name: options.name ?? previous?.name ?? basename(file, extname(file)),
        agent: options.agent ?? 'intercepted',
        exchanges,
        recordedAt: new Date(),
        sdkVersion: sdkVersion(),
      });
      const saveOptions = { redactions: settings.redactions, secrets: settings.secrets };
      const trajectory =
        previous === undefined
          ? recorded
          : inPreviousOrder(previous, recorded, (next) => prepareTrajectory(next, saveOptions));
      // A re-recording that changes nothing but the time leaves the file as it was: no churn in git.
      if (previous !== undefined && sameButTime(previous, trajectory, saveOptions)) written = previous;
      else written = saveTrajectory(file, trajectory, saveOptions);
    },
  };
}

function exchangeOf(request: MessagesRequest, contentType: string, text: string): Exchange {
  if (!contentType.includes('text/event-stream'))
    return { request, response: parseModelResponse(JSON.parse(text), 'The API') };
  const events = parseSse(text);
  return { request, response: messageOfEvents(events), events };
}

/** A successful answer that is not a Messages API response legate can read, as the error close() throws. */
function unreadableResponse(request: number, error: unknown): UsageError {
  const reason = error instanceof Error ? error.message : String(error);
  return new UsageError(
    'intercept_unsupported',
    `The answer to intercepted request ${request} is not a Messages API response legate can read (${reason}), ` +
      'so the traffic was not recorded. The client got it as sent.',
    { cause: error },
  );
}

/** Whether the file already holds what would be saved, but for the time it was recorded. */
function sameButTime(previous: Trajectory, next: Trajectory, saveOptions: SaveOptions): boolean {
  const prepared = prepareTrajectory(next, saveOptions);
  return serializeTrajectory(previous) === serializeTrajectory({ ...prepared, recordedAt: previous.recordedAt });
}

/**
 * The base URLs intercepted: the API's, the `baseURL`s given, and `ANTHROPIC_BASE_URL` when set (the SDK sends
 * there when its client is given no `baseURL`; read as the SDK reads it: trimmed, ignored when empty).
 */
function basesOf(baseURL: InterceptOptions['baseURL'], env: NodeJS.ProcessEnv = process.env): string[] {
  const given = baseURL === undefined ? [] : typeof baseURL === 'string' ? [baseURL] : [...baseURL];
  const fromEnv = env.ANTHROPIC_BASE_URL?.trim() || undefined;
  const named = [
    ...[DEFAULT_BASE, ...given].map((base) => ({ base, source: "interceptAnthropic's baseURL" })),
    ...(fromEnv === undefined ? [] : [{ base: fromEnv, source: 'ANTHROPIC_BASE_URL' }]),
  ];
  const bases = named.map(({ base, source }) => {
    let url: URL | undefined;
    try {
      url = new URL(base);
    } catch {}
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      throw new UsageError(
        'invalid_intercept_option',
        `${source} must be an http(s) URL such as 'http://127.0.0.1:8080', but it was ${JSON.stringify(base)}.`,
      );
    return base.replace(/\/+$/, '');
  });
  return [...new Set(bases)];
}

/** An unreadable old file is simply replaced. */
function tryLoad(file: string): Trajectory | undefined {
  try {
    return loadTrajectory(file);
  } catch {
    return undefined;
  }
}
