import { readFileSync } from 'node:fs';
import { http, HttpResponse } from 'msw';
import type { SetupServer } from 'msw/node';
import { Agent, ScriptedTransport, reply, type AnyTool, type ToolCall } from '../../src/index.js';

/** The text of a document in test/fixtures/openapi/ (see the README there for where each comes from). */
export function openApiFixture(name: string): string {
  return readFileSync(new URL(`../fixtures/openapi/${name}`, import.meta.url), 'utf8');
}

/** One request as the API received it. */
export interface ReceivedRequest {
  method: string;
  url: URL;
  /** The path exactly as it arrived, percent-encoding kept. */
  rawPath: string;
  headers: Headers;
  /** The body text, '' when there was none. */
  body: string;
}

/**
 * Serves every request under `baseUrl` with `answer` (by default 200 and `{ "ok": true }`), keeping each
 * request as it arrived in the returned list.
 */
export function receiveRequests(
  server: SetupServer,
  baseUrl: string,
  answer: (request: ReceivedRequest) => Response = () => HttpResponse.json({ ok: true }),
): ReceivedRequest[] {
  const received: ReceivedRequest[] = [];
  server.use(
    http.all(`${baseUrl}/*`, async ({ request }) => {
      const url = new URL(request.url);
      const rawPath = request.url.slice(url.origin.length).split(/[?#]/)[0]!;
      const seen: ReceivedRequest = {
        method: request.method,
        url,
        rawPath,
        headers: request.headers,
        body: await request.text(),
      };
      received.push(seen);
      return answer(seen);
    }),
  );
  return received;
}

/**
 * The model's input for an operation's tool, from its parameters and its JSON body. Where the body sits in
 * the tool's input (under a `body` property or beside the parameters) is the tool's choice: it is read from
 * the tool's own schema, so a test states what it sends in the API's terms.
 */
export function inputFor(tool: AnyTool, parameters: Record<string, unknown>, body?: unknown): Record<string, unknown> {
  if (body === undefined) return { ...parameters };
  const properties = (tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {};
  if ('body' in properties) return { ...parameters, body };
  return { ...parameters, ...(body as Record<string, unknown>) };
}

/** Calls one tool as a model would, through an Agent (binder, guard, shaping), and returns the call. */
export async function callTool(tools: readonly AnyTool[], name: string, input: unknown): Promise<ToolCall> {
  const transport = new ScriptedTransport([reply.toolUse(name, input), reply.text('Done.')]);
  const agent = new Agent({ name: 'caller', model: 'claude-haiku-5-5', tools: [...tools], transport, maxTurns: 3 });
  const result = await agent.run(`Call ${name}.`);
  const call = result.toolCalls.find((c) => c.name === name);
  if (call === undefined) throw new Error(`the run made no call to ${name}`);
  return call;
}
