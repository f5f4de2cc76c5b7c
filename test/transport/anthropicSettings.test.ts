import { createServer } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AnthropicTransport, type MessagesRequest, TransportError, UsageError } from '../../src/index.js';
import { API_URL, messageEnd, messageJson, messageStart, sseResponse, textBlock } from '../support/anthropicApi.js';

// Recording against the live API fails first on the settings: a key that is not set, a URL nothing answers at.
// The error says which variable or URL to check, and carries it as data (code, setting) for the CLI and for code.

// Requests msw has no handler for go to the network: the closed port below is a real one.
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => {
  server.resetHandlers();
  vi.unstubAllEnvs();
});
afterAll(() => server.close());

const request: MessagesRequest = {
  model: 'claude-sonnet-5-5',
  max_tokens: 64,
  messages: [{ role: 'user', content: 'Hello' }],
};

/** A local URL nothing listens at: a port the system gave out, then closed. */
async function closedPort(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((done) => probe.close(() => done()));
  return `http://127.0.0.1:${port}`;
}

async function failure(send: () => Promise<unknown>): Promise<TransportError> {
  const error = await send().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TransportError);
  return error as TransportError;
}

describe('AnthropicTransport, when its settings are wrong', () => {
  it.each([true, false])(
    'names ANTHROPIC_API_KEY when no key is set (stream: %s), before any request',
    async (stream) => {
      vi.stubEnv('ANTHROPIC_API_KEY', undefined);
      vi.stubEnv('ANTHROPIC_AUTH_TOKEN', undefined);
      let requests = 0;
      server.use(http.post(API_URL, () => void requests++));
      const error = await failure(() => new AnthropicTransport({ stream }).send(request));
      expect(error).toMatchObject({ kind: 'request', code: 'missing_api_key', setting: 'ANTHROPIC_API_KEY' });
      expect(error.message).toMatch(/^ANTHROPIC_API_KEY is not set: .*export ANTHROPIC_API_KEY=/);
      expect(error.message).not.toContain('\n');
      expect(requests).toBe(0);
    },
  );

  it.each([true, false])(
    'names the URL and ANTHROPIC_BASE_URL when the connection is refused (stream: %s)',
    async (stream) => {
      const url = await closedPort();
      vi.stubEnv('ANTHROPIC_BASE_URL', url);
      const client = new Anthropic({ apiKey: 'sk-ant-test-key', maxRetries: 0 });
      const error = await failure(() => new AnthropicTransport({ client, stream }).send(request));
      expect(error).toMatchObject({
        kind: 'connection',
        code: 'connection_failed',
        setting: 'ANTHROPIC_BASE_URL',
        url,
      });
      expect(error.message).toMatch(
        new RegExp(`^could not connect to ${url} \\(ANTHROPIC_BASE_URL\\): .*ECONNREFUSED.*Check`),
      );
      expect(error.message).not.toContain('\n');
    },
  );

  it('says the same for a network error msw reports, at the default URL', async () => {
    server.use(http.post(API_URL, () => HttpResponse.error()));
    const client = new Anthropic({ apiKey: 'sk-ant-test-key', maxRetries: 0 });
    const error = await failure(() => new AnthropicTransport({ client }).send(request));
    expect(error).toMatchObject({ code: 'connection_failed', url: 'https://api.anthropic.com' });
    expect(error.message).toMatch(/^could not connect to https:\/\/api\.anthropic\.com \(ANTHROPIC_BASE_URL\): /);
  });

  it('keeps transport_failed for an answer the API gave (a refused key is not a missing one)', async () => {
    server.use(
      http.post(API_URL, () =>
        HttpResponse.json(
          { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
          { status: 401 },
        ),
      ),
    );
    const client = new Anthropic({ apiKey: 'sk-ant-wrong', maxRetries: 0 });
    const error = await failure(() => new AnthropicTransport({ client }).send(request));
    expect(error).toMatchObject({
      kind: 'api',
      code: 'transport_failed',
      status: 401,
      errorType: 'authentication_error',
    });
    expect(error.setting).toBeUndefined();
  });
});

describe('AnthropicTransport options', () => {
  it('makes its client on the first send, with maxRetries and timeout, and keeps it', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-test-key');
    server.use(http.post(API_URL, () => HttpResponse.json(messageJson([{ type: 'text', text: 'Hi.' }], 'end_turn'))));
    const transport = new AnthropicTransport({ maxRetries: 5, timeout: 30_000, stream: false });
    expect(transport.client).toBeUndefined(); // the SDK is loaded on the first send, not when legate is imported
    expect((await transport.send(request)).content).toEqual([{ type: 'text', text: 'Hi.' }]);
    const made = transport.client;
    expect(made).toBeInstanceOf(Anthropic);
    expect(made).toMatchObject({ maxRetries: 5, timeout: 30_000, apiKey: 'sk-ant-test-key' });
    await transport.send(request);
    expect(transport.client).toBe(made);
  });

  it.each([true, false])('sends with the very client it was given (stream: %s)', async (stream) => {
    const sent: string[] = [];
    const answer = messageJson([{ type: 'text', text: 'Hi.' }], 'end_turn');
    const client = new Anthropic({
      apiKey: 'sk-ant-own',
      maxRetries: 0,
      fetch: async (url) => {
        sent.push(String(url));
        return stream
          ? sseResponse([messageStart(), ...textBlock(0, ['Hi.']), ...messageEnd('end_turn', 2)])
          : Response.json(answer);
      },
    });
    const transport = new AnthropicTransport({ client, stream });
    expect(transport.client).toBe(client);
    expect((await transport.send(request)).content).toEqual([{ type: 'text', text: 'Hi.' }]);
    expect(transport.client).toBe(client);
    expect(sent).toEqual(['https://api.anthropic.com/v1/messages']);
  });

  it.each([
    [{ maxRetries: -1 }, 'was given maxRetries the number -1'],
    [{ maxRetries: 1.5 }, 'was given maxRetries the number 1.5'],
    [{ timeout: 0 }, 'was given timeout the number 0'],
    [{ timeout: '10s' }, 'was given timeout the string "10s"'],
    [{ stream: 'yes' }, 'was given stream the string "yes"'],
    [{ retries: 3 }, 'has no option "retries"'],
  ])('refuses %j, saying what it takes', (options, said) => {
    const make = () => new AnthropicTransport(options as never);
    expect(make).toThrow(UsageError);
    expect(make).toThrow(`An AnthropicTransport ${said}. It takes client`);
  });
});
