import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { OpenApiError, openApiTools, type OpenApiTools, type OpenApiToolsOptions } from '../../src/openapi/index.js';
import { useMockServer } from '../support/mockServer.js';
import { callTool, inputFor, openApiFixture, receiveRequests } from '../support/openApiCalls.js';
import { expectWellFormed, operationsOf, READS, tool } from './realSpecChecks.js';

/**
 * openApiTools against real public documents (test/fixtures/openapi/README.md says where each comes
 * from), with msw standing in for the API: the tools generated, what is skipped and why, and one call
 * for each place a parameter can be, checked by what the API received.
 */
const server = useMockServer();
const PETSTORE = 'https://petstore.test/api/v3';
const BOX = 'https://box.test/2.0';

describe('Swagger Petstore, OpenAPI 3.0 (YAML)', () => {
  const spec = openApiFixture('petstore-3.0.yaml');

  it('makes a tool per operation, named from its operationId, reads untrusted and writes privileged', async () => {
    const set = await openApiTools(spec, { baseUrl: PETSTORE });
    const flags = Object.fromEntries(
      set.tools.map((t) => [t.name, { untrusted: t.untrusted, privileged: t.privileged }]),
    );
    const read = { untrusted: true, privileged: false };
    const write = { untrusted: false, privileged: true };
    expect(flags).toEqual({
      update_pet: write,
      add_pet: write,
      find_pets_by_status: read,
      find_pets_by_tags: read,
      get_pet_by_id: read,
      update_pet_with_form: write,
      delete_pet: write,
      get_inventory: read,
      place_order: write,
      get_order_by_id: read,
      delete_order: write,
      create_user: write,
      create_users_with_list_input: write,
      login_user: read,
      logout_user: read,
      get_user_by_name: read,
      update_user: write,
      delete_user: write,
    });
    expectWellFormed(set.tools);
    // The optional api_key header of deletePet is never shown to the model.
    expect(JSON.stringify(tool(set.tools, 'delete_pet').inputSchema)).not.toContain('api_key');
  });

  it('skips the upload, whose body is neither JSON nor a form, and reports the optional header left out', async () => {
    const set = await openApiTools(spec, { baseUrl: PETSTORE });
    expect(set.skipped).toEqual([
      { operation: 'POST /pet/{petId}/uploadImage', operationId: 'uploadFile', reason: expect.any(String) },
      {
        operation: 'DELETE /pet/{petId}',
        operationId: 'deletePet',
        parameter: { name: 'api_key', in: 'header' },
        reason: expect.stringMatching(/not in the tool's input.*send it with 'headers'/),
      },
    ]);
    expect(set.skipped[0]!.reason).toContain('application/octet-stream');
    expect(set.toText()).toContain('POST /pet/{petId}/uploadImage');
    expect(set.toText()).toContain("DELETE /pet/{petId} (deletePet), header parameter 'api_key': the model never");
  });

  it('puts a path parameter in its segment and a JSON body in the body', async () => {
    const { tools } = await openApiTools(spec, { baseUrl: PETSTORE });
    const received = receiveRequests(server, PETSTORE);
    const pet = { id: 10, name: 'doggie', photoUrls: ['https://x.test/1.png'], status: 'available' };
    const added = await callTool(tools, 'add_pet', inputFor(tool(tools, 'add_pet'), {}, pet));
    expect(added.outcome).toBe('ok');
    const got = await callTool(tools, 'get_pet_by_id', { petId: 7 });
    expect(got.outcome).toBe('ok');
    expect(received.map((r) => `${r.method} ${r.url.href}`)).toEqual([`POST ${PETSTORE}/pet`, `GET ${PETSTORE}/pet/7`]);
    expect(JSON.parse(received[0]!.body)).toEqual(pet);
    expect(received[0]!.headers.get('content-type')).toMatch(/^application\/json/);
    expect(received[1]!.body).toBe('');
  });

  it('sends query parameters, an exploded array as repeated keys, and the caller headers', async () => {
    const { tools } = await openApiTools(spec, { baseUrl: PETSTORE, headers: { Authorization: 'Bearer t0k' } });
    const received = receiveRequests(server, PETSTORE);
    await callTool(tools, 'find_pets_by_tags', { tags: ['tag1', 'tag 2&x'] });
    await callTool(tools, 'find_pets_by_status', { status: 'sold' });
    await callTool(tools, 'update_pet_with_form', { petId: 3, name: 'Rex', status: 'pending' });
    expect(received.map((r) => [r.method, r.url.pathname])).toEqual([
      ['GET', '/api/v3/pet/findByTags'],
      ['GET', '/api/v3/pet/findByStatus'],
      ['POST', '/api/v3/pet/3'],
    ]);
    expect(received[0]!.url.searchParams.getAll('tags')).toEqual(['tag1', 'tag 2&x']);
    expect([...received[1]!.url.searchParams]).toEqual([['status', 'sold']]);
    expect(Object.fromEntries(received[2]!.url.searchParams)).toEqual({ name: 'Rex', status: 'pending' });
    for (const request of received) expect(request.headers.get('authorization')).toBe('Bearer t0k');
  });

  it('answers a non-success with its status as content, not a failure', async () => {
    const { tools } = await openApiTools(spec, { baseUrl: PETSTORE });
    receiveRequests(server, PETSTORE, () => HttpResponse.text('Pet not found', { status: 404 }));
    const call = await callTool(tools, 'get_pet_by_id', { petId: 99 });
    expect(call.outcome).toBe('ok');
    expect(call.output).toBe('HTTP 404 Not Found: Pet not found');
  });
});

describe('OpenAPI Petstore, OpenAPI 3.1 (YAML)', () => {
  const spec = openApiFixture('petstore-3.1.yaml');

  it('makes a tool per JSON or form operation and skips the upload, naming its media type', async () => {
    const set = await openApiTools(spec, { baseUrl: PETSTORE });
    expect(set.tools.map((t) => [t.name, t.untrusted, t.privileged]).sort()).toEqual([
      ['add_pet', false, true],
      ['create_user', false, true],
      ['create_users_with_array_input', false, true],
      ['create_users_with_list_input', false, true],
      ['delete_order', false, true],
      ['delete_pet', false, true],
      ['delete_user', false, true],
      ['find_pets_by_status', true, false],
      ['find_pets_by_tags', true, false],
      ['get_inventory', true, false],
      ['get_order_by_id', true, false],
      ['get_pet_by_id', true, false],
      ['get_user_by_name', true, false],
      ['login_user', true, false],
      ['logout_user', true, false],
      ['place_order', false, true],
      ['update_pet', false, true],
      ['update_pet_with_form', false, true],
      ['update_user', false, true],
    ]);
    expect(set.skipped.map((s) => [s.operation, s.operationId, s.parameter])).toEqual([
      ['POST /pet/{petId}/uploadImage', 'uploadFile', undefined],
      ['DELETE /pet/{petId}', 'deletePet', { name: 'api_key', in: 'header' }],
    ]);
    expect(set.skipped[0]!.reason).toContain('multipart/form-data');
    expectWellFormed(set.tools);
  });

  it('sends the form of updatePetWithForm as form fields, with its media type', async () => {
    const { tools } = await openApiTools(spec, { baseUrl: PETSTORE });
    const received = receiveRequests(server, PETSTORE);
    const form = tool(tools, 'update_pet_with_form');
    expect(
      await callTool(tools, 'update_pet_with_form', inputFor(form, { petId: 3 }, { name: 'Rex & Co', status: 'sold' })),
    ).toMatchObject({ outcome: 'ok' });
    expect(received.map((r) => `${r.method} ${r.url.href}`)).toEqual([`POST ${PETSTORE}/pet/3`]);
    expect(received[0]!.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(received[0]!.body).toBe('name=Rex%20%26%20Co&status=sold');
  });

  it('sends a comma-separated query array (explode: false) and refuses a value outside the bounds unsent', async () => {
    const { tools } = await openApiTools(spec, { baseUrl: PETSTORE });
    const received = receiveRequests(server, PETSTORE);
    await callTool(tools, 'find_pets_by_status', { status: ['available', 'sold'] });
    const outside = await callTool(tools, 'get_order_by_id', { orderId: 6 });
    expect(outside.outcome).toBe('invalid');
    expect(outside.error).toMatchObject({ error: 'invalid_argument', path: ['orderId'] });
    await callTool(tools, 'get_order_by_id', { orderId: 5 });
    await callTool(tools, 'login_user', { username: 'ada', password: 'p&ss=word?' });
    expect(received.map((r) => [r.method, r.url.pathname])).toEqual([
      ['GET', '/api/v3/pet/findByStatus'],
      ['GET', '/api/v3/store/order/5'],
      ['GET', '/api/v3/user/login'],
    ]);
    expect([...received[0]!.url.searchParams]).toEqual([['status', 'available,sold']]);
    expect(Object.fromEntries(received[2]!.url.searchParams)).toEqual({ username: 'ada', password: 'p&ss=word?' });
  });

  it('sends a PUT with its JSON body, and a body that is an array', async () => {
    const { tools } = await openApiTools(spec, { baseUrl: PETSTORE });
    const received = receiveRequests(server, PETSTORE);
    const user = { id: 4, username: 'kitty', email: 'k@example.com', userStatus: 1 };
    await callTool(tools, 'update_user', inputFor(tool(tools, 'update_user'), { username: 'kitty' }, user));
    const users = [user, { username: 'rex' }];
    await callTool(
      tools,
      'create_users_with_array_input',
      inputFor(tool(tools, 'create_users_with_array_input'), {}, users),
    );
    expect(received.map((r) => `${r.method} ${r.url.href}`)).toEqual([
      `PUT ${PETSTORE}/user/kitty`,
      `POST ${PETSTORE}/user/createWithArray`,
    ]);
    expect(JSON.parse(received[0]!.body)).toEqual(user);
    expect(JSON.parse(received[1]!.body)).toEqual(users);
  });
});

describe("swagger-api's design-first Petstore 3.1", () => {
  it("is refused as a whole, with the parser's finding and what to do", async () => {
    const error = await openApiTools(openApiFixture('petstore-3.1-swagger.yaml'), { baseUrl: PETSTORE }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OpenApiError);
    expect(error).toMatchObject({ code: 'openapi_invalid' });
    expect((error as Error).message).toContain('#/components/schemas/Tag');
    expect((error as Error).message).toMatch(/Fix it/);
  });
});

describe('Box Platform API (296 operations)', () => {
  const text = openApiFixture('box-platform.json');
  const document = JSON.parse(text) as Record<string, unknown>;
  const operations = operationsOf(document);
  // Reading 1.7 MB takes seconds: each selection is built once for the file.
  const built = new Map<string, Promise<OpenApiTools>>();
  const box = (options: Omit<OpenApiToolsOptions, 'baseUrl'>): Promise<OpenApiTools> => {
    const key = JSON.stringify(options);
    if (!built.has(key)) built.set(key, openApiTools(document, { baseUrl: BOX, ...options }));
    return built.get(key)!;
  };

  it('refuses to make more tools than maxTools, saying how many and how to select', async () => {
    const all = await box({ maxTools: 1000 });
    expect(all.tools.length).toBeGreaterThan(64);
    const error = await openApiTools(document, { baseUrl: BOX }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(String(all.tools.length));
    expect((error as Error).message).toMatch(/tags/);
    expect((error as Error).message).toMatch(/operationIds/);
  });

  it('accounts for every operation: a tool or a skip with its reason', async () => {
    const set = await box({ maxTools: 1000 });
    // JSON text is read as the object is.
    expect((await openApiTools(text, { baseUrl: BOX, operationIds: ['get_folders_id'] })).tools).toHaveLength(1);
    expect(operations).toHaveLength(296);
    const [parameters, whole] = [set.skipped.filter((s) => s.parameter), set.skipped.filter((s) => !s.parameter)];
    expect(set.tools.length + whole.length).toBe(operations.length);
    expectWellFormed(set.tools);
    const skipped = new Map(whole.map((s) => [s.operation, s]));
    // Each optional header of an operation that is a tool is reported, by name, and is not in the tool's input.
    const leftOut = operations
      .filter((o) => !skipped.has(o.operation))
      .flatMap((o) => o.optionalHeaders.map((header) => `${o.operation} ${header}`));
    expect(leftOut.length).toBeGreaterThan(0);
    expect(parameters.map((s) => `${s.operation} ${s.parameter!.in} ${s.parameter!.name}`)).toEqual(leftOut);
    for (const s of set.skipped) expect(s.reason.length).toBeGreaterThan(0);
    // Reads and writes, by method, for the operations that became tools.
    const byName = new Map(set.tools.map((t) => [t.name, t]));
    expect(byName.get('get_folders_id')).toMatchObject({ untrusted: true, privileged: false });
    expect(byName.get('post_folders')).toMatchObject({ untrusted: false, privileged: true });
    expect(byName.get('delete_folders_id')).toMatchObject({ untrusted: false, privileged: true });
    const reads = set.tools.filter((t) => t.untrusted);
    const readOperations = operations.filter((o) => READS.has(o.operation.split(' ')[0]!) && !skipped.has(o.operation));
    expect(reads).toHaveLength(readOperations.length);

    const needsHeader = operations.filter((o) => o.requiredHeaders.length > 0);
    expect(needsHeader.map((o) => o.operationId)).toEqual([
      'put_files_upload_sessions_id',
      'post_files_upload_sessions_id_commit',
      'get_shared_items',
      'get_shared_items#folders',
      'get_shared_items#web_links',
      'get_shared_items#app_items',
    ]);
    for (const o of needsHeader) {
      const skip = skipped.get(o.operation);
      expect(skip, o.operation).toMatchObject({ operationId: o.operationId });
      if (o.bodyTypes.every((type) => type === 'application/json')) {
        expect(skip!.reason).toMatch(/header/i);
        expect(skip!.reason).toContain(o.requiredHeaders[0]);
      }
    }
    const upload = operations.filter(
      (o) => o.bodyTypes.length > 0 && o.bodyTypes.every((t) => t.startsWith('multipart/')),
    );
    expect(upload).toHaveLength(3);
    for (const o of upload) {
      expect(skipped.get(o.operation), o.operation).toMatchObject({ operationId: o.operationId });
      expect(skipped.get(o.operation)!.reason).toContain(o.bodyTypes[0]);
    }
    // Its OAuth 2.0 operations take form bodies: tools, but for the one whose schema requires a field it does not
    // declare (Box's schema for revoke requires 'grant_type' and allows no other property), which no input passes.
    const forms = operations.filter((o) => o.bodyTypes.includes('application/x-www-form-urlencoded'));
    expect(
      forms.map((o) => [o.operationId, skipped.get(o.operation)?.reason.match(/'grant_type' is required/)?.[0]]),
    ).toEqual([
      ['post_oauth2_token', undefined],
      ['post_oauth2_token#refresh', undefined],
      ['post_oauth2_revoke', "'grant_type' is required"],
    ]);
  });

  it('selects by tag and by operation id', async () => {
    const folders = await box({ tags: ['Folders'] });
    const expected = operations.filter((o) => o.tags.includes('Folders')).map((o) => o.operationId);
    expect(folders.tools.map((t) => t.name).sort()).toEqual([...expected].sort());
    const two = await box({ operationIds: ['get_folders_id', 'post_folders'], prefix: 'box_' });
    expect(two.tools.map((t) => t.name).sort()).toEqual(['box_get_folders_id', 'box_post_folders']);
  });

  it('sends a path parameter, a comma-separated query array and a JSON body as the document says', async () => {
    const { tools } = await box({ tags: ['Folders'] });
    const received = receiveRequests(server, BOX);
    await callTool(tools, 'get_folders_id', { folder_id: '12345', fields: ['id', 'name'], sort: 'name', limit: 5 });
    const body = { name: 'Reports 2026', parent: { id: '0' } };
    await callTool(tools, 'post_folders', inputFor(tool(tools, 'post_folders'), { fields: ['id'] }, body));
    await callTool(tools, 'delete_folders_id', { folder_id: '77', recursive: true });
    expect(received.map((r) => [r.method, r.url.pathname])).toEqual([
      ['GET', '/2.0/folders/12345'],
      ['POST', '/2.0/folders'],
      ['DELETE', '/2.0/folders/77'],
    ]);
    // explode: false: one key, the items joined by commas. offset, which the model left out, is not sent: the
    // document's default (0) is the API's to apply, and the model reads it in the description.
    expect(received[0]!.url.search).toBe('?fields=id,name&sort=name&limit=5');
    expect(tool(tools, 'get_folders_id').inputSchema.properties).toMatchObject({
      offset: { description: expect.stringMatching(/\nWhen left out, the API uses 0\./) },
    });
    expect([...received[1]!.url.searchParams]).toEqual([['fields', 'id']]);
    expect(JSON.parse(received[1]!.body)).toEqual(body);
    expect([...received[2]!.url.searchParams]).toEqual([['recursive', 'true']]);
  });
});
