import { MissingPeerDependencyError } from '../errors/MissingPeerDependencyError.js';

const PARSER = {
  name: '@readme/openapi-parser',
  neededBy: 'legate/openapi',
  install: 'npm install @readme/openapi-parser@^9.0.0',
};

export type OpenApiParser = typeof import('@readme/openapi-parser');

let loaded: Promise<OpenApiParser> | undefined;

/**
 * The OpenAPI parser, imported on first use and kept, so `import 'legate/openapi'` works without it.
 * A failed import is not kept, so installing it later works.
 */
export function loadOpenApiParser(): Promise<OpenApiParser> {
  loaded ??= import('@readme/openapi-parser').catch((error: unknown) => {
    loaded = undefined;
    throw MissingPeerDependencyError.orCause(error, PARSER);
  });
  return loaded;
}
