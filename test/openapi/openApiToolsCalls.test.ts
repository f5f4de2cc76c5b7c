import fc from 'fast-check';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { AnyTool } from '../../src/index.js';
import { OpenApiCallError, openApiTools } from '../../src/openapi/index.js';
import { useMockServer } from '../support/mockServer.js';
import { BASE, PETS_YAML, itemsSpec } from './openApiToolsSpecs.js';

const server = useMockServer();

/** Binds the arguments as the runtime does, then runs the tool. */
async function call(tool: AnyTool, args: unknown, signal = new AbortController().signal): Promise<unknown> {
  const bound = tool.bind(args);
  if (!bound.ok) throw new Error(`refused: ${JSON.stringify(bound)}`);
  return tool.run(bound.args, { toolUseId: 'toolu_1', agent: 'a', signal, now: () => new Date(0) });
}

/** Records each request the API receives, answering with its URL. */
function recorded(): Request[] {
  const seen: Request[] = [];
  server.use(
    http.all(`${BASE}/*`, async ({ request }) => {
      seen.push(request.clone());
      return HttpResponse.json({ url: request.url });
    }),
  );
  return seen;
}

const tools = async (options = {}) => {
  const set = await openApiTools(PETS_YAML, options);
  return Object.fromEntries(set.tools.map((t) => [t.name, t])) as Record<string, AnyTool>;
};

describe('openApiTools: calls', () => {
  it('fills the path, serialises the query as the document says, sends the caller’s headers', async () => {
    const seen = recorded();
    let token = 0;
    const t = await tools({ headers: () => ({ authorization: `Bearer t${++token}` }) });
    await call(t.get_pet_by_id!, { petId: '7', fields: ['name', 'age'] });
    await call(t.list_pets!, {
      tags: ['a', 'b c'],
      words: ['x', 'y'],
      ids: [1, 2],
      filter: { kind: 'dog', age: 3 },
      page: { size: 10, after: 'k&v' },
      limit: 5,
    });
    expect(seen.map((r) => r.url)).toEqual([
      `${BASE}/pets/7?fields=name&fields=age`,
      `${BASE}/pets?tags=a|b%20c&words=x%20y&ids=1,2&filter%5Bkind%5D=dog&filter%5Bage%5D=3` +
        '&size=10&after=k%26v&limit=5',
    ]);
    expect(seen.map((r) => r.headers.get('authorization'))).toEqual(['Bearer t1', 'Bearer t2']);
    expect(new URL(seen[1]!.url).searchParams.get('filter[kind]')).toBe('dog');
  });

  it('sends the JSON body given under `body`, with its media type', async () => {
    const seen = recorded();
    const t = await tools({ headers: { 'x-api-key': 'k' } });
    expect(await call(t.add_pet!, { body: { name: 'Rex', nickname: null } })).toBe(
      JSON.stringify({ url: `${BASE}/pets` }),
    );
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.headers.get('content-type')).toBe('application/json');
    expect(seen[0]!.headers.get('x-api-key')).toBe('k');
    expect(await seen[0]!.json()).toEqual({ name: 'Rex', nickname: null });
  });

  it('keeps a path parameter inside its segment: ../admin, %2F, ?x=, # never change the path or query', async () => {
    const seen = recorded();
    const t = await tools();
    for (const petId of ['../admin', '..%2Fadmin', '%2F', '1?admin=true', '1#x', 'a/b', ' ', '..\\admin'])
      await call(t.get_pet_by_id!, { petId });
    for (const request of seen) {
      const url = new URL(request.url);
      expect(url.pathname.startsWith('/v1/pets/')).toBe(true);
      expect(url.pathname.split('/')).toHaveLength(4);
      expect(url.search).toBe('');
      expect(decodeURIComponent(url.pathname.split('/')[3]!)).toBeTruthy();
    }
    expect(seen.map((r) => decodeURIComponent(new URL(r.url).pathname.split('/')[3]!))).toEqual([
      '../admin',
      '..%2Fadmin',
      '%2F',
      '1?admin=true',
      '1#x',
      'a/b',
      ' ',
      '..\\admin',
    ]);
  });

  it('refuses, as an error result the model can act on, a path value that is an empty, . or .. segment', async () => {
    const seen = recorded();
    const t = await tools();
    for (const petId of ['', '.', '..'])
      expect(await call(t.get_pet_by_id!, { petId })).toMatchObject({
        content: expect.stringMatching(/'petId' cannot be empty, '\.' or '\.\.'/),
      });
    expect(seen).toEqual([]);
  });

  it('property: whatever string the model gives, the request keeps its path, the value in one segment', async () => {
    const seen = recorded();
    const t = await tools();
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: fc.constantFrom('.', '/', '%', '?', '#', '\\', 'a', '2', 'F', ' ', '&') }),
        async (petId) => {
          seen.length = 0;
          const result = await call(t.get_pet_by_id!, { petId });
          if (petId === '' || petId === '.' || petId === '..') {
            expect(seen).toEqual([]);
            expect(result).toMatchObject({ content: expect.any(String) });
            return;
          }
          expect(seen).toHaveLength(1);
          const url = new URL(seen[0]!.url);
          const segments = url.pathname.split('/');
          expect(segments.slice(0, 3)).toEqual(['', 'v1', 'pets']);
          expect(segments).toHaveLength(4);
          expect(decodeURIComponent(segments[3]!)).toBe(petId);
          expect(url.search).toBe('');
        },
      ),
      { numRuns: 150 },
    );
  });

  it('returns a non-2xx response to the model as content, its body capped', async () => {
    server.use(
      http.get(`${BASE}/pets/:id`, ({ params }) =>
        params.id === 'big'
          ? new HttpResponse('x'.repeat(5000), { status: 500, statusText: 'Internal Server Error' })
          : HttpResponse.json({ error: 'no such pet' }, { status: 404, statusText: 'Not Found' }),
      ),
      http.delete(`${BASE}/pets/:id`, () => new HttpResponse(null, { status: 204, statusText: 'No Content' })),
    );
    const t = await tools();
    expect(await call(t.get_pet_by_id!, { petId: '9' })).toBe('HTTP 404 Not Found: {"error":"no such pet"}');
    const big = (await call(t.get_pet_by_id!, { petId: 'big' })) as string;
    expect(big.startsWith(`HTTP 500 Internal Server Error: ${'x'.repeat(2000)}… (3000 more characters`)).toBe(true);
    expect(await call(t.delete_pet!, { petId: '9' })).toBe('HTTP 204 No Content (no content)');
  });

  it('caps what the model reads with maxResultLength', async () => {
    server.use(http.get(`${BASE}/pets/:id`, () => HttpResponse.text('y'.repeat(100))));
    const t = await tools({ maxResultLength: 10 });
    expect(t.get_pet_by_id!.maxResultLength).toBe(10);
  });

  it('fails the call on a network failure and on a timeout, with codes', async () => {
    server.use(
      http.get(`${BASE}/items/down`, () => HttpResponse.error()),
      http.get(`${BASE}/items/slow`, async () => {
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    const set = await openApiTools(itemsSpec(), { baseUrl: BASE, timeoutMs: 20 });
    const get = set.tools[0]!;
    const down = await call(get, { id: 'down' }).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(OpenApiCallError);
    expect(down).toMatchObject({ code: 'openapi_request_failed', operation: 'GET /items/{id}' });
    await expect(call(get, { id: 'slow' })).rejects.toMatchObject({
      code: 'openapi_timeout',
      message: expect.stringMatching(/no response within 20 ms; the request was cancelled/),
    });
  });

  it('cancels the request when the run’s AbortSignal fires, throwing its reason', async () => {
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let aborted = false;
    server.use(
      http.get(`${BASE}/items/:id`, async ({ request }) => {
        request.signal.addEventListener('abort', () => {
          aborted = true;
        });
        arrived();
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    const set = await openApiTools(itemsSpec(), { baseUrl: BASE });
    const controller = new AbortController();
    const pending = call(set.tools[0]!, { id: '1' }, controller.signal);
    await reached;
    const reason = new Error('stopped by the user');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(aborted).toBe(true);
  });

  it('uses the fetch it is given', async () => {
    const urls: string[] = [];
    const set = await openApiTools(itemsSpec(), {
      baseUrl: 'https://elsewhere.example/',
      fetch: async (url) => {
        urls.push(String(url));
        return new Response('fine');
      },
    });
    expect(await call(set.tools[0]!, { id: 'a b' })).toBe('fine');
    expect(urls).toEqual(['https://elsewhere.example/items/a%20b']);
  });
});
