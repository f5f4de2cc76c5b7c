// Imports legate/openapi where the OpenAPI parser cannot be found, then asks for tools: prints what happened, as JSON.
import { register } from 'node:module';

register('./openApiToolsNoParserHooks.mjs', import.meta.url);
const { openApiTools } = await import('../../src/openapi/index.js');
const spec = { openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: {} };
const error = await openApiTools(spec, { baseUrl: 'https://x.example' }).then(
  () => undefined,
  (e: unknown) => e as { name: string; code: string; message: string },
);
process.stdout.write(JSON.stringify({ imported: true, name: error?.name, code: error?.code, message: error?.message }));
