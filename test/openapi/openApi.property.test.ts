import fc from 'fast-check';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { Agent, ScriptedTransport, reply, type AnyTool } from '../../src/index.js';
import { openApiTools } from '../../src/openapi/index.js';
import { useMockServer } from '../support/mockServer.js';
import { callTool, inputFor, receiveRequests } from '../support/openApiCalls.js';

/**
 * Properties of the tools openApiTools derives, over generated documents and generated model behaviour,
 * checked by what the API (msw) actually received.
 */
const server = useMockServer();
const BASE = 'https://api.test/v1';

const METHODS = ['get', 'head', 'options', 'post', 'put', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];
const isRead = (method: Method) => method === 'get' || method === 'head' || method === 'options';

interface GeneratedOperation {
  method: Method;
  withId: boolean;
  withBody: boolean;
}

/** An OpenAPI 3.0 document with one operation per entry, `op0`, `op1`, ... on paths of their own. */
function documentOf(operations: readonly GeneratedOperation[]): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const [i, op] of operations.entries()) {
    const path = op.withId ? `/r${i}/{id}` : `/r${i}`;
    paths[path] = {
      [op.method]: {
        operationId: `op${i}`,
        summary: `Operation ${i}`,
        ...(op.withId
          ? { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } }] }
          : {}),
        ...(op.withBody && !isRead(op.method)
          ? {
              requestBody: {
                required: true,
                content: {
                  'application/json': {
                    schema: { type: 'object', properties: { note: { type: 'string' } }, required: ['note'] },
                  },
                },
              },
            }
          : {}),
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    };
  }
  return { openapi: '3.0.3', info: { title: 'generated', version: '1' }, paths };
}

const operationArb: fc.Arbitrary<GeneratedOperation> = fc.record({
  method: fc.constantFrom(...METHODS),
  withId: fc.boolean(),
  withBody: fc.boolean(),
});

/**
 * A document, and runs of the model over it (reading a document is the slow part, so each is used by several
 * runs): each run's calls say which operation, with which id and note, and how the API answers.
 */
const scenarioArb = fc
  .uniqueArray(operationArb, { minLength: 1, maxLength: 6, selector: (op) => JSON.stringify(op) })
  .chain((operations) =>
    fc.record({
      operations: fc.constant(operations),
      runs: fc.array(
        fc.array(
          fc.record({
            index: fc.nat({ max: operations.length - 1 }),
            id: fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/),
            note: fc.string({ maxLength: 20 }),
            status: fc.constantFrom<Answer>(200, 201, 404, 500, 'network error'),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        { minLength: 1, maxLength: 4 },
      ),
    }),
  );

describe('openApiTools: derived safety', () => {
  it('after a read succeeds no write reaches the API; before it (and after failed reads) every call does', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ operations, runs }) => {
        const { tools } = await openApiTools(documentOf(operations), { baseUrl: BASE });
        for (const calls of runs) await checkRun(operations, tools, calls);
      }),
      {
        numRuns: 15,
        seed: 1717,
        // Always tried: a read with no answer, then a write (it runs); a read answered 404, then a write (blocked).
        examples: [
          [
            {
              operations: [
                { method: 'get', withId: true, withBody: false },
                { method: 'post', withId: false, withBody: true },
              ],
              runs: [
                [
                  { index: 0, id: 'a', note: '', status: 'network error' },
                  { index: 1, id: 'b', note: 'x', status: 201 },
                ],
                [
                  { index: 0, id: 'a', note: '', status: 404 },
                  { index: 1, id: 'b', note: 'x', status: 201 },
                ],
              ],
            },
          ],
        ],
      },
    );
  });
});

/** How the API answers a request: a status (any status is content the model reads), or no answer at all. */
type Answer = 200 | 201 | 404 | 500 | 'network error';
type Call = { index: number; id: string; note: string; status: Answer };

/** One run of the model's calls through an Agent, checked against what must reach the API. */
async function checkRun(operations: readonly GeneratedOperation[], tools: AnyTool[], calls: readonly Call[]) {
  server.resetHandlers();
  // The n-th request the API receives gets the n-th call's answer.
  const answerOf = (n: number): Answer => calls[n]?.status ?? 200;
  let answered = 0;
  const received = receiveRequests(server, BASE, () => {
    const status = answerOf(answered++);
    return status === 'network error' ? HttpResponse.error() : HttpResponse.json({ answer: answered }, { status });
  });
  const script = calls.map(({ index, id, note }) => {
    const op = operations[index]!;
    const tool = tools.find((t) => t.name === `op${index}`)!;
    const parameters = op.withId ? { id } : {};
    const body = op.withBody && !isRead(op.method) ? { note } : undefined;
    return reply.toolUse(tool.name, inputFor(tool, parameters, body));
  });
  const transport = new ScriptedTransport([...script, reply.text('Done.')]);
  const agent = new Agent({
    name: 'api',
    model: 'claude-haiku-5-5',
    tools,
    transport,
    maxTurns: calls.length + 1,
  });
  const result = await agent.run('Use the API.');

  // What must have happened: every read is sent; a write is sent only while no read has succeeded yet. A read
  // succeeds when the API answers, whatever the status (a 404's body is content the model reads); one that got
  // no answer (a network error, a tool failure) gave the model nothing to read.
  let readSucceeded = false;
  let requests = 0;
  const expected: string[] = [];
  const blocked: string[] = [];
  for (const { index } of calls) {
    const op = operations[index]!;
    if (!isRead(op.method) && readSucceeded) {
      blocked.push(`op${index}`);
      continue;
    }
    expected.push(`${op.method.toUpperCase()} op${index}`);
    if (isRead(op.method) && answerOf(requests) !== 'network error') readSucceeded = true;
    requests++;
  }
  const sent = received.map((r) => `${r.method} op${r.url.pathname.split('/')[2]!.slice(1)}`);
  expect(sent).toEqual(expected);
  expect(result.blocked.map((b) => [b.tool, b.rule])).toEqual(blocked.map((name) => [name, 'taint']));
  expect(result.tainted).toBe(readSucceeded);
}

/** Strings a model might put in a path parameter to leave its segment, and anything else. */
const pathValueArb = fc.oneof(
  fc.constantFrom('../admin', '..', '.', '%2F', '%2e%2e', '/', '?', '#', 'a/b', 'a?b=1', 'x#frag', '%', '%zz', ' '),
  fc.constantFrom('..%2Fadmin', '/etc/passwd', '\\..\\', 'ä/ö', '😀', '\u0000', '\r\n', '..;/', '%252F'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 }),
  fc
    .array(fc.constantFrom('.', '/', '?', '#', '%', '2', 'F', 'e', '&', '=', ';', '\\', ' ', '+', 'é'), {
      minLength: 1,
      maxLength: 10,
    })
    .map((parts) => parts.join('')),
);

/** Values no segment can carry: the empty segment and the dot segments, which URL parsing removes. */
const notASegment = (value: string) => value === '' || value === '.' || value === '..';

describe('openApiTools: path parameters', () => {
  const document = {
    openapi: '3.1.0',
    info: { title: 'items', version: '1' },
    paths: {
      '/items/{id}/details': {
        get: {
          operationId: 'getItemDetails',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'ok' } },
        },
      },
    },
  };

  it('never leave their segment: the API gets the same path shape, the value decoding to what was sent', async () => {
    const { tools } = await openApiTools(document, { baseUrl: BASE });
    await fc.assert(
      fc.asyncProperty(pathValueArb, async (value) => {
        server.resetHandlers();
        const received = receiveRequests(server, BASE);
        const call = await callTool(tools, 'get_item_details', { id: value });
        if (notASegment(value)) {
          // Refused, as the model is told; nothing is sent.
          expect(call.outcome).not.toBe('ok');
          expect(received).toEqual([]);
          return;
        }
        expect(call.outcome).toBe('ok');
        expect(received).toHaveLength(1);
        const [request] = received;
        const segments = request!.rawPath.split('/');
        expect(segments).toHaveLength(5);
        expect(segments.slice(0, 3)).toEqual(['', 'v1', 'items']);
        expect(segments[4]).toBe('details');
        expect(decodeURIComponent(segments[3]!)).toBe(value);
        expect(request!.url.search).toBe('');
        expect(request!.url.hash).toBe('');
      }),
      { numRuns: 150, seed: 4242, examples: [['../admin'], ['%2F'], ['?x=1'], ['#top'], ['..'], ['.']] },
    );
  });
});
