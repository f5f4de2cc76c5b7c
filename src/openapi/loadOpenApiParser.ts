import { optionalPeerImport } from '../files/optionalPeerImport.js';

const PARSER = {
  name: '@readme/openapi-parser',
  neededBy: 'legate/openapi',
  install: 'npm install @readme/openapi-parser@^9.0.0',
};

export type OpenApiParser = typeof import('@readme/openapi-parser');

/**
 * The OpenAPI parser, imported on first use and kept, so `import 'legate/openapi'` works without it.
 * A failed import is not kept, so installing it later works.
 */
export const loadOpenApiParser: () => Promise<OpenApiParser> = optionalPeerImport(
  () => import('@readme/openapi-parser'),
  PARSER,
);
