// A local stand-in for the Anthropic API as the Claude Agent SDK's binary reaches it through ANTHROPIC_BASE_URL:
// it logs every request whole (method, URL with query, headers, body) and answers POST /v1/messages with the
// scripted response for the turn, as SSE when the request streams (Claude Code always does), else as JSON.
// A request that offers tools is the agent's loop: its turn is the number of assistant messages it holds.
// Any other (a title, a quota check) is a side request, answered with `side`. HEAD/GET /api/hello answers 200;
// anything else 404.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ApiStopReason, ModelResponse, ResponseBlock } from '../../../src/messages/types.js';
import { sseEventsOf, sseText } from '../../../src/transport/scripted/sseEvents.js';

export interface LoggedRequest {
  method: string;
  /** Path and query, as the request line had it. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON, the text where it is not JSON, undefined where empty. */
  body: unknown;
  /** What the stand-in answered: the loop turn, `side`, `hello`, or the status of a refusal. */
  answer: string;
  /** When the request's body had arrived, in milliseconds since the stand-in started listening. */
  atMs: number;
}

export interface ScriptedTurn {
  content: ResponseBlock[];
  stop_reason: ApiStopReason;
}

/** An answer that is not a scripted response: a status, headers and a JSON body (an API error, say). */
export interface ErrorAnswer {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

export interface AgentSdkStandInOptions {
  /** The loop's responses, by turn. */
  script: ScriptedTurn[];
  /** The answer to a side request; by default a text block holding `{"title":"Pay the invoice"}`. */
  side?: ScriptedTurn;
  /** Answers a request instead of the script when it returns one (errors, refusals). */
  refuse?: (request: LoggedRequest) => ErrorAnswer | undefined;
}

export interface AgentSdkStandIn {
  /** The base URL to give as ANTHROPIC_BASE_URL. */
  url: string;
  requests: LoggedRequest[];
  close(): Promise<void>;
}

const SIDE: ScriptedTurn = {
  content: [{ type: 'text', text: '{"title":"Pay the invoice"}' }],
  stop_reason: 'end_turn',
};

export async function startAgentSdkStandIn(options: AgentSdkStandInOptions): Promise<AgentSdkStandIn> {
  const requests: LoggedRequest[] = [];
  const started = performance.now();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const logged: LoggedRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: parsed(text),
        answer: '',
        atMs: Math.round(performance.now() - started),
      };
      requests.push(logged);
      const refusal = options.refuse?.(logged);
      if (refusal !== undefined) {
        logged.answer = String(refusal.status);
        const headers = { 'content-type': 'application/json', ...refusal.headers };
        response.writeHead(refusal.status, headers).end(JSON.stringify(refusal.body));
        return;
      }
      const path = logged.url.split('?')[0];
      if (path === '/api/hello' && (logged.method === 'HEAD' || logged.method === 'GET')) {
        logged.answer = 'hello';
        response.writeHead(200, { 'content-type': 'text/plain' }).end(logged.method === 'GET' ? 'hello' : undefined);
        return;
      }
      if (path !== '/v1/messages' || logged.method !== 'POST') {
        logged.answer = '404';
        const error = { type: 'error', error: { type: 'not_found_error', message: `no route ${logged.url}` } };
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(error));
        return;
      }
      const body = logged.body as {
        model?: string;
        messages?: { role: string }[];
        tools?: unknown[];
        stream?: boolean;
      };
      const loop = Array.isArray(body.tools) && body.tools.length > 0;
      const turn = (body.messages ?? []).filter((message) => message.role === 'assistant').length;
      const scripted = loop ? options.script[turn] : (options.side ?? SIDE);
      logged.answer = loop ? `turn ${turn}` : 'side';
      if (scripted === undefined) {
        logged.answer = '404';
        const error = { type: 'error', error: { type: 'not_found_error', message: `no scripted turn ${turn}` } };
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(error));
        return;
      }
      const message: ModelResponse = {
        id: `msg_standin_${requests.length}`,
        type: 'message',
        role: 'assistant',
        model: body.model ?? 'claude-sonnet-4-5',
        content: scripted.content,
        stop_reason: scripted.stop_reason,
        stop_sequence: null,
        usage: { input_tokens: 100 + 10 * turn, output_tokens: 20 },
      };
      const headers = { 'request-id': `req_standin_${requests.length}` };
      if (body.stream !== true) {
        response.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(message));
        return;
      }
      response.writeHead(200, { ...headers, 'content-type': 'text/event-stream' }).end(sseText(sseEventsOf(message)));
    });
  });
  // Given as HTTPS_PROXY, the stand-in also sees (and refuses) what the binary sends to other hosts.
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    requests.push({
      method: 'CONNECT',
      url: request.url ?? '',
      headers: request.headers,
      body: undefined,
      answer: '502',
      atMs: Math.round(performance.now() - started),
    });
    socket.on('error', () => {}); // the client may reset the refused tunnel
    socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function parsed(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
