import { LegateError } from '../errors/LegateError.js';

export type OpenApiErrorCode =
  /** The document is not an object, JSON text or YAML text that holds one. */
  | 'openapi_unreadable'
  /** The document is not OpenAPI 3.0 or 3.1 (Swagger 2.0, or no version field). */
  | 'openapi_unsupported_version'
  /** The parser found the document invalid (a missing field, a `$ref` to nothing, a duplicate operationId). */
  | 'openapi_invalid'
  /** An option of `openApiTools` is not one it can use (a misspelt key, an unknown operationId, no base URL). */
  | 'openapi_invalid_option'
  /** The selection gives more tools than `maxTools`. */
  | 'openapi_too_many_tools'
  /**
   * The part of the document read expands, its `$ref`s followed, to more than `maxDocumentNodes` JSON
   * values; or the inputs of the operations selected come to more than that together.
   */
  | 'openapi_too_large';

/** For `openapi_too_many_tools`: how many tools the operations selected give, and the most allowed. */
interface TooManyTools {
  readonly tools: number;
  readonly maxTools: number;
}

/** A document or options `openApiTools` cannot build tools from; thrown at construction, never during a run. */
export class OpenApiError extends LegateError {
  /** For `openapi_too_many_tools`, the counts, for a caller that says them in its own terms. */
  readonly tooManyTools?: TooManyTools;

  constructor(
    readonly code: OpenApiErrorCode,
    message: string,
    options?: { cause?: unknown; tooManyTools?: TooManyTools },
  ) {
    super(message, options);
    if (options?.tooManyTools !== undefined) this.tooManyTools = options.tooManyTools;
  }
}

export type OpenApiCallErrorCode =
  /** The request got no response: the host could not be reached, the connection failed. */
  | 'openapi_request_failed'
  /** No response within `timeoutMs`; the request was cancelled. */
  | 'openapi_timeout';

/**
 * A call of an OpenAPI tool that got no HTTP response. Thrown from the tool's `run`, it is that
 * call's failure (outcome `error`); a response with an error status is not one (the model reads it).
 */
export class OpenApiCallError extends LegateError {
  constructor(
    readonly code: OpenApiCallErrorCode,
    /** The operation called: `GET /pets/{petId}`. */
    readonly operation: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
