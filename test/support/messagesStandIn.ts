// A local stand-in for the Messages API over real HTTP, for a process that reaches it through
// ANTHROPIC_BASE_URL: it answers POST /v1/messages with the scripted message for the turn (JSON, or
// the SSE stream the API sends when the request asks for one).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sseBody } from './anthropicApi.js';

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };
export interface StandInMessage {
  content: Block[];
  stopReason: 'end_turn' | 'tool_use';
}

export interface MessagesStandIn {
  /** The base URL to give as ANTHROPIC_BASE_URL. */
  url: string;
  /** Every request body received, in order. */
  requests: { model: string; messages: unknown[]; stream?: boolean }[];
  close(): Promise<void>;
}

/** Serves `script[n]` to a request with 2n + 1 messages (the user's input, then n exchanges). */
export async function startMessagesStandIn(script: StandInMessage[]): Promise<MessagesStandIn> {
  const requests: MessagesStandIn['requests'] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      const sent = JSON.parse(body) as MessagesStandIn['requests'][number];
      requests.push(sent);
      const turn = (sent.messages.length - 1) / 2;
      const scripted = request.url?.startsWith('/v1/messages') === true ? script[turn] : undefined;
      if (scripted === undefined) {
        const error = { type: 'error', error: { type: 'not_found_error', message: `no scripted turn ${turn}` } };
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(error));
        return;
      }
      const message = {
        id: `msg_standin_${turn}`,
        type: 'message',
        role: 'assistant',
        model: sent.model,
        content: scripted.content,
        stop_reason: scripted.stopReason,
        stop_sequence: null,
        usage: { input_tokens: 100 + 10 * turn, output_tokens: 20 },
      };
      if (sent.stream !== true) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' }).end(sseBody(streamOf(message)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections(); // the SDK's kept-alive sockets would hold close() open
      }),
  };
}

/** The events the API streams for a message: start, each block (input as one JSON delta), delta, stop. */
function streamOf(message: { content: Block[]; stop_reason: string; usage: { output_tokens: number } }) {
  const blocks = message.content.flatMap((block, index) => {
    const start =
      block.type === 'text' ? { ...block, text: '' } : { type: 'tool_use', id: block.id, name: block.name, input: {} };
    const delta =
      block.type === 'text'
        ? { type: 'text_delta', text: block.text }
        : { type: 'input_json_delta', partial_json: JSON.stringify(block.input) };
    return [
      { type: 'content_block_start', index, content_block: start },
      { type: 'content_block_delta', index, delta },
      { type: 'content_block_stop', index },
    ];
  });
  return [
    { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...message.usage } } },
    ...blocks,
    {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: message.usage.output_tokens },
    },
    { type: 'message_stop' },
  ];
}
