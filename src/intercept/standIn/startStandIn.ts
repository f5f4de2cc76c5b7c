import { apiError, bodyOf, isProbe, PROBE_PATH } from '../apiHttp.js';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../../errors/UsageError.js';
import type { MessagesRequest } from '../../messages/types.js';
import { loadTrajectory } from '../../trajectory/trajectoryFile.js';
import type { Trajectory } from '../../trajectory/types.js';
import type { ScriptStep } from '../../transport/scripted/ScriptedTransport.js';
import { sseEventsOf, sseText } from '../../transport/scripted/sseEvents.js';
import { deliveredBody, deliveredEvents } from '../../transport/scripted/streamDelivery.js';
import { recordingAnswers } from './recordingAnswers.js';
import { scriptAnswers } from './scriptAnswers.js';
import { type Answers, refusal, type StandInAnswer } from './standInAnswer.js';

export interface StandInOptions {
  /** The responses to serve, one a request in the order they arrive: the steps a `ScriptedTransport` takes. */
  script?: readonly ScriptStep[];
  /** A recording to serve instead: a trajectory file (relative to the working folder) or one already read. */
  trajectory?: string | Trajectory;
  /** The port to listen on. Default 0: any free one (`url` says which). */
  port?: number;
  /** The address to listen on. Default `127.0.0.1`. */
  host?: string;
}

/** One request the stand-in received (the connectivity probe aside): its method, path and query, headers, body. */
export interface StandInRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body as JSON; its text where it is not JSON; undefined where there is none. */
  body: unknown;
}

/** A stand-in for the Messages API, listening. */
export interface StandIn {
  /** The base URL to give a client (`ANTHROPIC_BASE_URL`, the SDK's `baseURL`): `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every request received but the connectivity probe, in the order they arrived, answered or refused. */
  readonly requests: readonly StandInRequest[];
  /** Stops listening and ends the connections kept open; a second call waits for the first. */
  close(): Promise<void>;
}

/** The path of the Messages API under any base (`/v1/messages`, `/anthropic/v1/messages`), before any query. */
const MESSAGES_PATH = /\/v1\/messages\/?$/;
/** Claude Code's connectivity probe. */

/**
 * Serves a scripted conversation, or a recording's responses, as the Messages API over HTTP: each `POST
 * <base>/v1/messages` (any query, such as `?beta=true`) gets the next response as JSON, or as the API's server-sent
 * events when the request asks for a stream. Anything it has no answer for gets an error in the API's shape that
 * the client does not retry (`x-should-retry: false`), saying what was asked and what the stand-in has.
 */
export async function startStandIn(options: StandInOptions): Promise<StandIn> {
  const answers = answersOf(options);
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw invalid(`port must be a whole number from 0 to 65535 (0: any free port), but it was ${String(port)}`);
  const requests: StandInRequest[] = [];
  const server = createServer((request, response) => {
    handle(request, response, answers, requests).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      if (!response.headersSent) send(response, refusal(`The stand-in failed: ${reason}`, 500, 'api_error'));
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    const refused = (error: Error) =>
      reject(invalid(`cannot listen on ${host}:${port} (${error.message}); give another port (0: any free one)`));
    server.once('error', refused);
    server.listen(port, host, () => {
      server.off('error', refused);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
    requests,
    // Closing twice is closing once.
    close: () =>
      (closed ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        // A client keeps its connections alive: they would hold close() open.
        server.closeAllConnections();
      })),
  };
}

function answersOf(options: StandInOptions): Answers {
  const { script, trajectory } = options;
  if ((script === undefined) === (trajectory === undefined))
    throw invalid('give it a script (a list of steps, as ScriptedTransport takes) or a trajectory, one of the two');
  if (script !== undefined) {
    if (!Array.isArray(script))
      throw invalid(`its script must be a list of steps (reply.text(...), ...), but it was ${typeof script}`);
    return scriptAnswers(script);
  }
  if (typeof trajectory === 'string') {
    const hint = 'There is nothing to serve: check the path (a relative one is resolved from the working folder).';
    return recordingAnswers(loadTrajectory(trajectory, hint), trajectory);
  }
  return recordingAnswers(trajectory!, `the trajectory '${trajectory!.name}'`);
}

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  answers: Answers,
  requests: StandInRequest[],
): Promise<void> {
  const path = request.url ?? '/';
  const pathname = path.split('?')[0]!;
  if (isProbe(request.method, pathname)) {
    response.writeHead(200, { 'content-type': 'application/json' }).end(request.method === 'HEAD' ? undefined : '{}');
    return;
  }
  const text = (await bodyOf(request)).toString('utf8');
  const body = parsed(text);
  requests.push({ method: request.method ?? '', path, headers: request.headers, body });
  if (request.method !== 'POST' || !MESSAGES_PATH.test(pathname)) {
    send(
      response,
      refusal(
        `The stand-in answers POST <base>/v1/messages (and ${PROBE_PATH}); it was asked ${request.method} ${path}.`,
        404,
        'not_found_error',
      ),
    );
    return;
  }
  if (!isMessagesRequest(body)) {
    const got = text === '' ? 'no body' : typeof body === 'string' ? 'a body that is not JSON' : 'no messages list';
    send(response, refusal(`The stand-in was sent ${got}: a Messages API request is JSON with a "messages" list.`));
    return;
  }
  const answer = await answers.answer(body);
  if (answer.ok && (body as { stream?: unknown }).stream === true) await stream(response, answer);
  else send(response, answer);
}

/** An answer as JSON: the response (without what only a stream can say), or the error in the API's shape. */
function send(response: ServerResponse, answer: StandInAnswer): void {
  if (answer.ok) {
    const { incompleteToolUse: _cut, ...message } = answer.response;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message));
    return;
  }
  const error = apiError(answer.status, answer.type, answer.message);
  response.writeHead(error.status, error.headers).end(error.body);
}

/** A response as the API streams it (its recorded events where it has them), delivered as its script says. */
async function stream(response: ServerResponse, answer: StandInAnswer & { ok: true }): Promise<void> {
  const events = answer.events ?? sseEventsOf(answer.response);
  const delivery = answer.delivery ?? {};
  const bytes = new TextEncoder().encode(sseText(deliveredEvents(events, delivery)));
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const reader = deliveredBody(bytes, delivery).getReader();
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) response.write(chunk.value);
  } catch {
    // The delivery drops the connection here (dropAfterBytes).
    response.destroy();
    return;
  }
  response.end();
}

function parsed(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function isMessagesRequest(body: unknown): body is MessagesRequest {
  return typeof body === 'object' && body !== null && Array.isArray((body as { messages?: unknown }).messages);
}

function invalid(problem: string): UsageError {
  return new UsageError('invalid_stand_in_option', `The stand-in cannot start: ${problem}.`);
}
