// legate/openapi: tools from an OpenAPI document, with the safety posture derived from it.
// Needs the optional peer @readme/openapi-parser (npm install @readme/openapi-parser@^9.0.0);
// without it the functions here throw MissingPeerDependencyError (code missing_peer_dependency).
export { openApiTools, type OpenApiTools } from './openApiTools.js';
export type { OpenApiToolInfo, SkippedOperation } from './operationRows.js';
export type { OpenApiToolsOptions } from './openApiOptions.js';
export {
  OpenApiError,
  OpenApiCallError,
  type OpenApiErrorCode,
  type OpenApiCallErrorCode,
} from './OpenApiError.js';
