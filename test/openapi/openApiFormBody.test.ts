import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnyTool } from '../../src/index.js';
import { openApiTools, type OpenApiTools } from '../../src/openapi/index.js';
import { useMockServer } from '../support/mockServer.js';
import { callTool, receiveRequests } from '../support/openApiCalls.js';

/**
 * Form bodies (`application/x-www-form-urlencoded`): each field written as the media type's `encoding`
 * says, checked on what the API (msw) received, exactly; the decoding a server does gives back what the
 * model sent; and which bodies are no body, which are JSON, which are skipped.
 */
const server = useMockServer();
const BASE = 'https://forms.test/v1';
const FORM = 'application/x-www-form-urlencoded';

const ok = { '200': { description: 'ok' } };
const form = (schema: unknown, encoding?: unknown) => ({ [FORM]: { schema, ...(encoding ? { encoding } : {}) } });

const FORMS = {
  openapi: '3.0.3',
  info: { title: 'Forms', version: '1' },
  servers: [{ url: BASE }],
  paths: {
    '/charges': {
      post: {
        operationId: 'createCharge',
        requestBody: {
          required: true,
          content: form(
            {
              type: 'object',
              required: ['amount'],
              properties: {
                amount: { type: 'integer' },
                metadata: { type: 'object', additionalProperties: { type: 'string' } },
                items: {
                  type: 'array',
                  items: { type: 'object', properties: { price: { type: 'string' }, quantity: { type: 'integer' } } },
                },
                tags: { type: 'array', items: { type: 'string' } },
                ids: { type: 'array', items: { type: 'integer' } },
                page: { type: 'object', properties: { size: { type: 'integer' }, after: { type: 'string' } } },
                options: { type: 'object', properties: { capture: { type: 'boolean' } } },
                note: { type: 'string' },
              },
            },
            {
              metadata: { style: 'deepObject', explode: true },
              items: { style: 'deepObject', explode: true },
              tags: { style: 'form', explode: false },
              ids: { style: 'pipeDelimited' },
              options: { contentType: 'application/json' },
            },
          ),
        },
        responses: ok,
      },
      get: {
        operationId: 'listCharges',
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }],
        requestBody: { content: form({ type: 'object', properties: {}, additionalProperties: false }) },
        responses: ok,
      },
    },
    '/charges/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      delete: {
        operationId: 'deleteCharge',
        requestBody: { required: true, content: form({ type: 'object', additionalProperties: false }) },
        responses: ok,
      },
      put: {
        operationId: 'replaceCharge',
        requestBody: {
          content: {
            ...form({ type: 'object', properties: { note: { type: 'string' } } }),
            'application/json': { schema: { type: 'object', properties: { note: { type: 'string' } } } },
          },
        },
        responses: ok,
      },
    },
    '/notes': {
      post: {
        operationId: 'addNote',
        requestBody: { content: { 'text/plain': { schema: { type: 'string' } } } },
        responses: ok,
      },
      put: { operationId: 'putNote', requestBody: { content: form({ type: 'string' }) }, responses: ok },
      patch: { operationId: 'patchNote', requestBody: { content: { [FORM]: {} } }, responses: ok },
    },
  },
};

let built: Promise<OpenApiTools> | undefined;
const forms = () => (built ??= openApiTools(FORMS));
const named = (tools: readonly AnyTool[], name: string) => tools.find((t) => t.name === name)!;

describe('openApiTools: form bodies', () => {
  it('writes each field as its encoding says: deepObject brackets, form exploded or not, delimited, JSON', async () => {
    const { tools } = await forms();
    const received = receiveRequests(server, BASE);
    const body = {
      amount: 2000,
      metadata: { order_id: '6735', 'a b&c': 'x=y' },
      items: [{ price: 'price_1', quantity: 2 }, { price: 'price_2' }],
      tags: ['red', 'b,lue'],
      ids: [1, 2],
      page: { size: 10, after: 'k&v' },
      options: { capture: false },
      note: 'café ☕ 100%',
    };
    expect(await callTool(tools, 'create_charge', { body })).toMatchObject({ outcome: 'ok' });
    expect(received).toHaveLength(1);
    expect(received[0]!.headers.get('content-type')).toBe(FORM);
    expect(received[0]!.body).toBe(
      [
        'amount=2000',
        'metadata%5Border_id%5D=6735',
        'metadata%5Ba%20b%26c%5D=x%3Dy',
        'items%5B0%5D%5Bprice%5D=price_1',
        'items%5B0%5D%5Bquantity%5D=2',
        'items%5B1%5D%5Bprice%5D=price_2',
        'tags=red,b%2Clue',
        'ids=1|2',
        'size=10',
        'after=k%26v',
        'options=%7B%22capture%22%3Afalse%7D',
        'note=caf%C3%A9%20%E2%98%95%20100%25',
      ].join('&'),
    );
    const decoded = new URLSearchParams(received[0]!.body);
    expect(decoded.get('metadata[a b&c]')).toBe('x=y');
    expect(decoded.get('items[1][price]')).toBe('price_2');
    expect(JSON.parse(decoded.get('options')!)).toEqual({ capture: false });
    expect(decoded.get('note')).toBe('café ☕ 100%');
  });

  it('sends no body for an optional body that holds nothing; a required one is sent, even empty', async () => {
    const { tools } = await forms();
    const list = named(tools, 'list_charges');
    expect(list.inputSchema.properties).toEqual({ limit: { type: 'integer' } });
    expect(named(tools, 'delete_charge').inputSchema.required).toEqual(['id', 'body']);
    const received = receiveRequests(server, BASE);
    await callTool(tools, 'list_charges', { limit: 3 });
    await callTool(tools, 'delete_charge', { id: 'ch_1', body: {} });
    expect(received.map((r) => [`${r.method} ${r.url.href}`, r.headers.get('content-type'), r.body])).toEqual([
      [`GET ${BASE}/charges?limit=3`, null, ''],
      [`DELETE ${BASE}/charges/ch_1`, FORM, ''],
    ]);
  });

  it('prefers JSON; a schemaless form takes an object; skips another body type, or a form of a scalar', async () => {
    const set = await forms();
    const received = receiveRequests(server, BASE);
    await callTool(set.tools, 'replace_charge', { id: 'ch_1', body: { note: 'n' } });
    expect(received[0]!.headers.get('content-type')).toBe('application/json');
    expect(received[0]!.body).toBe('{"note":"n"}');
    expect(named(set.tools, 'patch_note').inputSchema.properties).toEqual({
      body: { description: 'The request body: its properties are sent as form fields.', type: 'object' },
    });
    await callTool(set.tools, 'patch_note', { body: { text: 'hi', n: 2 } });
    expect(received[1]!.body).toBe('text=hi&n=2');
    // In the order of the path item's methods: put before post.
    expect(set.skipped).toEqual([
      {
        operation: 'PUT /notes',
        operationId: 'putNote',
        reason:
          `its ${FORM} body is described as "string", not as an object whose properties are the form fields; ` +
          'legate cannot tell which fields to send.',
      },
      {
        operation: 'POST /notes',
        operationId: 'addNote',
        reason: `its request body is text/plain, neither JSON nor ${FORM}; legate sends only those.`,
      },
    ]);
  });
});

/** A key of a nested form field: not a number (an array's index reads as one) and without brackets. */
const memberName = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 6 })
  .filter((k) => !/[[\]]/.test(k) && !/^\d+$/.test(k) && k !== '__proto__');
const leaf = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.integer(), fc.boolean());
const { tree } = fc.letrec<{ tree: unknown; list: unknown[]; record: Record<string, unknown> }>((tie) => ({
  tree: fc.oneof({ depthSize: 'small' }, leaf, tie('list'), tie('record')),
  list: fc.array(tie('tree'), { minLength: 1, maxLength: 3 }),
  record: fc.dictionary(memberName, tie('tree'), { minKeys: 1, maxKeys: 3 }),
}));

/** The value back from `name[a][0][b]=v` pairs, as Rails, PHP and Stripe read them (all digits: an array's index). */
function fromBrackets(pairs: Iterable<[string, string]>, name: string): unknown {
  const root: { value?: unknown } = {};
  for (const [key, value] of pairs) {
    expect(key.startsWith(name)).toBe(true);
    const path = [...key.slice(name.length).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!);
    let parent: Record<string, unknown> = root;
    let at = 'value';
    for (const segment of path) {
      parent[at] ??= /^\d+$/.test(segment) ? [] : {};
      parent = parent[at] as Record<string, unknown>;
      at = segment;
    }
    parent[at] = value;
  }
  return root.value;
}

const asText = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(asText)
    : typeof value === 'object' && value !== null
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asText(v)]))
      : String(value);

/** Runs a tool for arguments the binder accepted, the API (msw) receiving the request. */
async function send(tool: AnyTool, args: unknown): Promise<void> {
  const bound = tool.bind(args);
  if (!bound.ok) throw new Error(`refused: ${JSON.stringify(bound.invalid)}`);
  await tool.run(bound.args, {
    toolUseId: 'toolu_1',
    agent: 'a',
    signal: new AbortController().signal,
    now: () => new Date(0),
  });
}

const OPEN = {
  openapi: '3.1.0',
  info: { title: 'Open form', version: '1' },
  servers: [{ url: BASE }],
  paths: {
    '/things': {
      post: {
        operationId: 'addThing',
        requestBody: {
          required: true,
          content: form(
            { type: 'object', properties: { data: {}, list: { type: 'array' }, joined: { type: 'array' } } },
            { data: { style: 'deepObject', explode: true }, joined: { style: 'form', explode: false } },
          ),
        },
        responses: ok,
      },
    },
  },
};

describe('openApiTools: form bodies, decoded as a server decodes them', () => {
  it('property: a deepObject field, nested to any depth, decodes bracket by bracket to the value sent', async () => {
    const [tool] = (await openApiTools(OPEN)).tools;
    const received = receiveRequests(server, BASE);
    await fc.assert(
      fc.asyncProperty(tree, async (data) => {
        received.length = 0;
        await send(tool!, { body: { data } });
        const body = received[0]!.body;
        expect(body).not.toMatch(/[[\]]/); // brackets are percent-encoded, as every other character of a name
        expect(fromBrackets(new URLSearchParams(body), 'data')).toEqual(asText(data));
      }),
      { numRuns: 60 },
    );
  });

  it('property: a form field list decodes to its items, repeated (exploded) or joined by commas', async () => {
    const [tool] = (await openApiTools(OPEN)).tools;
    const received = receiveRequests(server, BASE);
    const items = fc.array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.integer()), { maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(items, items, async (list, joined) => {
        received.length = 0;
        await send(tool!, { body: { list, joined } });
        const decoded = new URLSearchParams(received[0]!.body);
        expect(decoded.getAll('list')).toEqual(list.map(String));
        // The items' own commas are percent-encoded: only the separators are literal.
        const raw = /(?:^|&)joined=([^&]*)/.exec(received[0]!.body)?.[1];
        if (joined.length === 0) expect(raw).toBe('');
        else expect(raw!.split(',').map(decodeURIComponent)).toEqual(joined.map(String));
      }),
      { numRuns: 60 },
    );
  });
});
