import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openApiTools } from '../../src/openapi/index.js';
import { useMockServer } from '../support/mockServer.js';
import { callTool, receiveRequests } from '../support/openApiCalls.js';

/**
 * What a call sends is what the model sent: a default the document declares is the API's to apply (the
 * model reads it in the description), never added to the request. And what the model is never given (an
 * optional header or cookie parameter) is reported, not dropped without a word.
 */
const server = useMockServer();
const BASE = 'https://issues.test';
const ok = { '200': { description: 'ok' } };

/** GitHub's list operations declare these defaults (`GET /repos/{owner}/{repo}/issues`, ...). */
const ISSUES = {
  openapi: '3.0.3',
  info: { title: 'Issues', version: '1' },
  servers: [{ url: BASE }],
  paths: {
    '/issues': {
      get: {
        operationId: 'listIssues',
        parameters: [
          { name: 'sort', in: 'query', schema: { type: 'string', enum: ['created', 'updated'], default: 'created' } },
          { name: 'direction', in: 'query', description: 'The order.', schema: { type: 'string', default: 'desc' } },
          { name: 'per_page', in: 'query', schema: { type: 'integer', default: 30 } },
          { name: 'page', in: 'query', schema: { type: 'integer', default: 1 } },
          { name: 'X-GitHub-Api-Version', in: 'header', schema: { type: 'string', default: '2022-11-28' } },
          { name: 'session', in: 'cookie', schema: { type: 'string' } },
        ],
        responses: ok,
      },
      post: {
        operationId: 'createIssue',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['title'],
                properties: {
                  title: { type: 'string' },
                  draft: { type: 'boolean', description: 'Opened as a draft.', default: false },
                  labels: { type: 'array', items: { type: 'string' }, default: ['triage'] },
                },
              },
            },
          },
        },
        responses: ok,
      },
    },
    '/issues/{number}/lock': {
      put: {
        operationId: 'lockIssue',
        parameters: [
          { name: 'number', in: 'path', required: true, schema: { type: 'integer' } },
          { name: 'If-Match', in: 'header', required: true, schema: { type: 'string' } },
          { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
        ],
        responses: ok,
      },
    },
  },
};

describe('openApiTools: what is sent is what the model sent', () => {
  it('sends no default the model left out; the model reads each default in the description', async () => {
    const { tools } = await openApiTools(ISSUES);
    const received = receiveRequests(server, BASE);
    await callTool(tools, 'list_issues', { per_page: 5 });
    await callTool(tools, 'list_issues', {});
    await callTool(tools, 'create_issue', { body: { title: 'Crash on start' } });
    expect(received.map((r) => `${r.method} ${r.url.href} ${r.body}`)).toEqual([
      `GET ${BASE}/issues?per_page=5 `,
      `GET ${BASE}/issues `,
      `POST ${BASE}/issues {"title":"Crash on start"}`,
    ]);
    const [list, create] = tools;
    expect(JSON.stringify([list!.inputSchema, create!.inputSchema])).not.toContain('"default"');
    expect(list!.inputSchema.properties).toMatchObject({
      sort: { description: 'When left out, the API uses "created".' },
      direction: { description: 'The order.\nWhen left out, the API uses "desc".' },
      page: { description: 'When left out, the API uses 1.' },
    });
    expect((create!.inputSchema.properties as { body: { properties: object } }).body.properties).toMatchObject({
      draft: { description: 'Opened as a draft.\nWhen left out, the API uses false.' },
      labels: { description: 'When left out, the API uses ["triage"].' },
    });
  });

  it('property: the query holds exactly the parameters sent, whatever defaults the others declare', async () => {
    const value = fc.oneof(
      fc.string({ maxLength: 6 }).map((v) => ({ schema: { type: 'string' }, v })),
      fc.integer().map((v) => ({ schema: { type: 'integer' }, v })),
      fc.boolean().map((v) => ({ schema: { type: 'boolean' }, v })),
    );
    // Each parameter: its type and default, whether the model sends it, and what it sends.
    const parameter = fc
      .tuple(value, fc.boolean())
      .chain(([declared, sent]) =>
        (declared.schema.type === 'string'
          ? fc.string({ maxLength: 6 })
          : declared.schema.type === 'integer'
            ? fc.integer()
            : fc.boolean()
        ).map((given) => ({ schema: { ...declared.schema, default: declared.v }, sent, given })),
      );
    await fc.assert(
      fc.asyncProperty(fc.array(parameter, { minLength: 1, maxLength: 5 }), async (parameters) => {
        const spec = {
          openapi: '3.0.3',
          info: { title: 'Generated', version: '1' },
          servers: [{ url: BASE }],
          paths: {
            '/things': {
              get: {
                operationId: 'listThings',
                parameters: parameters.map((p, i) => ({ name: `p${i}`, in: 'query', schema: p.schema })),
                responses: ok,
              },
            },
          },
        };
        const [tool] = (await openApiTools(spec)).tools;
        const received = receiveRequests(server, BASE);
        const args = Object.fromEntries(parameters.flatMap((p, i) => (p.sent ? [[`p${i}`, p.given]] : [])));
        await callTool([tool!], 'list_things', args);
        expect([...received[0]!.url.searchParams]).toEqual(Object.entries(args).map(([k, v]) => [k, String(v)]));
      }),
      { numRuns: 20 },
    );
  });
});

describe('openApiTools: parameters the model is never given', () => {
  it('reports each optional header and cookie parameter of a tool, beside the operations skipped', async () => {
    const set = await openApiTools(ISSUES);
    expect(set.tools.map((t) => t.name)).toEqual(['list_issues', 'create_issue']);
    expect(set.skipped).toEqual([
      // A required header skips the whole operation; its optional one is not reported apart.
      {
        operation: 'PUT /issues/{number}/lock',
        operationId: 'lockIssue',
        reason: expect.stringMatching(/^it requires the header parameter 'If-Match'/),
      },
      {
        operation: 'GET /issues',
        operationId: 'listIssues',
        parameter: { name: 'X-GitHub-Api-Version', in: 'header' },
        reason:
          "the model never sets headers or cookies, so it is not in the tool's input; send it with 'headers' if " +
          'the API needs it.',
      },
      {
        operation: 'GET /issues',
        operationId: 'listIssues',
        parameter: { name: 'session', in: 'cookie' },
        reason: expect.stringMatching(/send it with 'headers' if the API needs it \(in a 'cookie' header\)\.$/),
      },
    ]);
    expect(set.toText()).toMatch(
      new RegExp(
        [
          String.raw`^Issues \(OpenAPI 3\.0\.3\): 2 tools, 1 operation skipped, 2 parameters left out\n` +
            String.raw`[\s\S]*\nSkipped:`,
          String.raw` {2}PUT \/issues\/\{number\}\/lock \(lockIssue\): it requires[^\n]*`,
          String.raw` {2}GET \/issues \(listIssues\), header parameter 'X-GitHub-Api-Version': ` +
            String.raw`the model never sets headers[^\n]*`,
          String.raw` {2}GET \/issues \(listIssues\), cookie parameter 'session': `,
        ].join('\n'),
      ),
    );
  });

  it('property: every optional header and cookie parameter is reported, in order, none in the input', async () => {
    const name = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,8}$/);
    const parameters = fc.uniqueArray(fc.tuple(name, fc.constantFrom('header', 'cookie')), {
      maxLength: 5,
      selector: ([n, where]) => `${where} ${n}`,
    });
    await fc.assert(
      fc.asyncProperty(parameters, async (given) => {
        const spec = {
          openapi: '3.1.0',
          info: { title: 'Generated', version: '1' },
          servers: [{ url: BASE }],
          paths: {
            '/things': {
              get: {
                operationId: 'listThings',
                parameters: [
                  { name: 'q', in: 'query', schema: { type: 'string' } },
                  ...given.map(([n, where]) => ({ name: n, in: where, schema: { type: 'string' } })),
                ],
                responses: ok,
              },
            },
          },
        };
        const set = await openApiTools(spec);
        expect(Object.keys(set.tools[0]!.inputSchema.properties as object)).toEqual(['q']);
        expect(set.skipped.map((s) => [s.operation, s.parameter?.in, s.parameter?.name])).toEqual(
          given.map(([n, where]) => ['GET /things', where, n]),
        );
      }),
      { numRuns: 20 },
    );
  });
});
