import { createServer } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { reply, TrajectoryNotFoundError, UsageError } from '../../../src/index.js';
import { startStandIn, type StandIn, type StandInOptions } from '../../../src/intercept/index.js';

// What the stand-in answers when it has no answer: an error in the API's shape that the client does not retry.

const started: StandIn[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((standIn) => standIn.close()));
});

async function serve(options: StandInOptions): Promise<StandIn> {
  const standIn = await startStandIn(options);
  started.push(standIn);
  return standIn;
}

const ask = { model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hello?' }] };

/** A client as an adopter makes one: the SDK's default retries (2) and backoff. */
const client = (standIn: StandIn) => new Anthropic({ apiKey: 'stand-in', baseURL: standIn.url });

describe('the stand-in refuses what it has no answer for', () => {
  it('answers a request past the end of its script with a 400 the SDK does not retry, saying what to do', async () => {
    const standIn = await serve({ script: [reply.text('only one')] });
    await client(standIn).messages.create(ask);
    const refused = await client(standIn)
      .messages.create(ask)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    const { status, error, headers } = refused as InstanceType<typeof Anthropic.BadRequestError>;
    expect(status).toBe(400);
    expect(headers.get('x-should-retry')).toBe('false');
    expect(error).toEqual({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message:
          'The stand-in has no response left for this request. The scripted model was called 2 times but its ' +
          'script has 1 response. Add a response for call 2, or end the run sooner (the last message was a user ' +
          'message).',
      },
    });
    // One request for the answer, one refused: no retry.
    expect(standIn.requests).toHaveLength(2);
  });

  it('answers a step that throws with a 500 the SDK does not retry (it retries a 500 without the header)', async () => {
    const standIn = await serve({
      script: [
        () => {
          throw new Error('the fixture is broken');
        },
      ],
    });
    const failed = await client(standIn)
      .messages.create(ask)
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Anthropic.InternalServerError);
    expect((failed as InstanceType<typeof Anthropic.InternalServerError>).error).toEqual({
      type: 'error',
      error: { type: 'api_error', message: "The stand-in's script failed on call 1: the fixture is broken" },
    });
    expect(standIn.requests).toHaveLength(1);
  });

  it('answers a path or method it does not serve with a 404 naming what it serves', async () => {
    const standIn = await serve({ script: [reply.text('unused')] });
    for (const [method, path] of [
      ['GET', '/v1/messages'],
      ['POST', '/v1/complete'],
      ['POST', '/v1/messages/count_tokens'],
    ]) {
      const answer = await fetch(`${standIn.url}${path}`, { method, body: method === 'GET' ? null : '{}' });
      expect(answer.status).toBe(404);
      expect(answer.headers.get('x-should-retry')).toBe('false');
      expect(await answer.json()).toEqual({
        type: 'error',
        error: {
          type: 'not_found_error',
          message: `The stand-in answers POST <base>/v1/messages (and /api/hello); it was asked ${method} ${path}.`,
        },
      });
    }
    expect(standIn.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /v1/messages',
      'POST /v1/complete',
      'POST /v1/messages/count_tokens',
    ]);
  });

  it('answers a body that is not a Messages request with a 400, and serves nothing for it', async () => {
    const standIn = await serve({ script: [reply.text('kept for a real request')] });
    for (const [body, got] of [
      ['not json', 'a body that is not JSON'],
      ['{"model":"m"}', 'no messages list'],
      ['', 'no body'],
    ] as const) {
      const answer = await fetch(`${standIn.url}/v1/messages`, { method: 'POST', body });
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: { message: string } }).error.message).toBe(
        `The stand-in was sent ${got}: a Messages API request is JSON with a "messages" list.`,
      );
    }
    expect((await client(standIn).messages.create(ask)).content).toEqual([
      { type: 'text', text: 'kept for a real request' },
    ]);
  });

  it("answers Claude Code's connectivity probe (HEAD and GET /api/hello) with 200, and does not count it", async () => {
    const standIn = await serve({ script: [] });
    const head = await fetch(`${standIn.url}/api/hello`, { method: 'HEAD' });
    const get = await fetch(`${standIn.url}/api/hello`);
    expect([head.status, get.status]).toEqual([200, 200]);
    expect(standIn.requests).toEqual([]);
  });
});

describe('startStandIn refuses options it cannot use', () => {
  it.each([
    [{}, 'give it a script (a list of steps, as ScriptedTransport takes) or a trajectory, one of the two'],
    [{ script: [], trajectory: 'trajectories/tool-loop.yaml' }, 'give it a script'],
    [{ script: reply.text('not a list') as never }, 'its script must be a list of steps'],
    [{ script: [], port: 70000 }, 'port must be a whole number from 0 to 65535 (0: any free port), but it was 70000'],
    [{ script: [], port: 1.5 }, 'but it was 1.5'],
  ] as [StandInOptions, string][])('%j', async (options, says) => {
    const refused = await startStandIn(options).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UsageError);
    expect(refused).toMatchObject({ code: 'invalid_stand_in_option', message: expect.stringContaining(says) });
  });

  it('says a port in use is in use', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as { port: number };
    const refused = await startStandIn({ script: [], port }).catch((error: unknown) => error);
    await new Promise((resolve) => holder.close(resolve));
    expect(refused).toMatchObject({
      code: 'invalid_stand_in_option',
      message: expect.stringMatching(
        new RegExp(`^The stand-in cannot start: cannot listen on 127\\.0\\.0\\.1:${port} \\(.*EADDRINUSE.*\\); give`),
      ),
    });
  });

  it('names a trajectory file that is not there', async () => {
    const refused = await startStandIn({ trajectory: 'trajectories/nope.yaml' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TrajectoryNotFoundError);
    expect((refused as Error).message).toBe(
      'trajectories/nope.yaml does not exist. There is nothing to serve: check the path (a relative one is ' +
        'resolved from the working folder).',
    );
  });
});
