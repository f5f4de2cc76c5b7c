import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiErrorResponse, bodyOf, isProbe } from './apiHttp.js';
import { httpBase } from './httpBase.js';
import { forwardUpstream } from './forwardUpstream.js';
import { openSession, type Interception, type InterceptSession, type SessionOptions } from './interceptSession.js';

export interface RecordingProxyOptions extends SessionOptions {
  /**
   * Where a recording sends the requests on to: the API, or a stand-in. Default: this process's
   * `ANTHROPIC_BASE_URL` when set (so a proxy started under a stand-in records from it), else the API.
   */
  upstream?: string;
  /** The port it listens on, on 127.0.0.1. Default: a free one. */
  port?: number;
}

/** A recording proxy listening: hand `url` (or `env`) to the client, close it when the client is done. */
export interface RecordingProxy extends Interception {
  /** The base URL a client is given (`ANTHROPIC_BASE_URL`): `http://127.0.0.1:<port>`. */
  readonly url: string;
  /**
   * The environment that points a client at the proxy: `ANTHROPIC_BASE_URL` and `ANTHROPIC_API_URL` (LangChain.js
   * reads it first), and in a replay a placeholder `ANTHROPIC_API_KEY` shaped as an API key, in place of any the
   * process has (clients refuse to start without a key; a replay sends nothing anywhere, and a key of another form
   * can change what a client sends).
   */
  readonly env: Record<string, string>;
  /** The divergence that ended a replay, as soon as it happened (the client got a 400 it does not retry). */
  readonly failure: Error | undefined;
}

const API = 'https://api.anthropic.com';

/**
 * The key a replay hands the client, whatever key the process has. Shaped as an API key, as recordings are made
 * with one: Claude Code (2.1.334) chooses its session-title request by the key's form (`sk-ant-api03-…`: a small
 * model; any other key: the main model, thinking off, temperature 1), so another form would make a request the
 * recording does not hold.
 */
const REPLAY_KEY = 'sk-ant-api03-legate-proxy-replay';

/** The one path recorded and replayed; Claude Code adds `?beta=true`, which changes nothing. */
const MESSAGES = '/v1/messages';

/**
 * Starts a recording proxy: a localhost endpoint that speaks the Messages API and records or replays it exactly as
 * interceptAnthropic does (the same file, modes and `LEGATE_MODE`, match levels, redactions, secret scan,
 * divergences), for a client in any process and any language pointed at it with `ANTHROPIC_BASE_URL`: the Claude
 * Agent SDK's binary, a Python agent, `curl`. It answers Claude Code's connectivity probe (`/api/hello`) itself. In
 * a replay, a request it cannot answer gets a 4xx the client does not retry, and the divergence is `failure` and
 * what `close()` throws. Other requests (token counting, model lists) are passed upstream unrecorded when recording.
 */
export async function startRecordingProxy(options: RecordingProxyOptions): Promise<RecordingProxy> {
  const upstream = upstreamOf(options.upstream);
  const session = await openSession(options);
  const seen: string[] = [];
  const server = createServer((incoming, reply) => {
    serve(session, upstream, incoming, reply, seen).catch((error: unknown) => {
      // Only writing the reply can fail here (the client hung up): nothing is left to tell it.
      if (!reply.headersSent) reply.writeHead(502).end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env: Record<string, string> = { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_URL: url };
  if (session.mode === 'replay') env.ANTHROPIC_API_KEY = REPLAY_KEY;
  return {
    mode: session.mode,
    file: session.file,
    url,
    env,
    get trajectory() {
      return session.trajectory;
    },
    get failure() {
      return session.failure;
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await session.close(nothingReached(url, seen));
    },
  };
}

async function serve(
  session: InterceptSession,
  upstream: string,
  incoming: IncomingMessage,
  reply: ServerResponse,
  seen: string[],
): Promise<void> {
  const url = new URL(incoming.url ?? '/', 'http://proxy.invalid');
  const method = incoming.method ?? 'GET';
  seen.push(`${method} ${url.pathname}`);
  // Claude Code's connectivity probe: answered here, neither recorded nor sent on.
  if (isProbe(method, url.pathname)) {
    reply.writeHead(200, { 'content-type': 'application/json' }).end(method === 'HEAD' ? undefined : '{}');
    return;
  }
  const hangUp = new AbortController();
  reply.on('close', () => {
    if (!reply.writableFinished) hangUp.abort();
  });
  const body = method === 'GET' || method === 'HEAD' ? undefined : await bodyOf(incoming);
  const request = new Request(`${upstream}${url.pathname}${url.search}`, {
    method,
    headers: headersOf(incoming),
    ...(body === undefined ? {} : { body }),
    signal: hangUp.signal,
  });
  const response =
    method === 'POST' && url.pathname === MESSAGES
      ? await session.answer(request, (sent) => sent)
      : session.mode === 'replay'
        ? notRecorded(method, url.pathname)
        : (await forwardUpstream(request, (sent) => sent)).response;
  await send(reply, response, method);
}

/** What a replay answers a request that is not a Messages API call: a 404 the client does not retry. */
function notRecorded(method: string, path: string): Response {
  return apiErrorResponse(
    404,
    'not_found_error',
    `legate's recording proxy replays POST ${MESSAGES} only, from its trajectory file; ${method} ${path} is not ` +
      'recorded there, so it has no answer.',
  );
}

async function send(reply: ServerResponse, response: Response, method: string): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body = method === 'HEAD' ? undefined : Buffer.from(await response.arrayBuffer());
  reply.writeHead(response.status, response.statusText, headers).end(body);
}

/** The request's headers as fetch takes them: those of the hop to the proxy left out. */
function headersOf(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

const HOP_HEADERS = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'expect']);

/** The base a recording sends on to, checked: an http(s) URL without a trailing slash. */
function upstreamOf(given: string | undefined): string {
  if (given !== undefined) return httpBase(given, "The recording proxy's upstream");
  const fromEnv = process.env.ANTHROPIC_BASE_URL?.trim();
  return fromEnv ? httpBase(fromEnv, "ANTHROPIC_BASE_URL (the recording proxy's upstream)") : API;
}

/** Why no Messages API request reached the proxy: where to point the client, and what did arrive. */
function nothingReached(url: string, seen: readonly string[]): string {
  const arrived = seen.filter((request) => request !== `POST ${MESSAGES}`);
  return (
    `Point the client at the proxy: ANTHROPIC_BASE_URL=${url} (LangChain.js reads ANTHROPIC_API_URL first; the AI ` +
    `SDK takes ${url}/v1).` +
    (arrived.length === 0
      ? ' No request reached it.'
      : ` It received only ${[...new Set(arrived)].slice(0, 5).join(', ')}.`)
  );
}
