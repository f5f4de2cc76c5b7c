import type { ToolContext } from '../tools/tool.js';
import { toolError, type ToolError } from '../tools/result/toolError.js';
import type { OperationInput } from './operationInput.js';
import { BODY } from './operationInput.js';
import { OpenApiCallError } from './OpenApiError.js';
import type { Operation } from './operations.js';
import { bodyText } from './requestBody.js';
import { PathEscape, requestUrl } from './requestUrl.js';

/** Characters of an error response's body the model is shown after `HTTP <status> <text>: `. */
const ERROR_BODY_LIMIT = 2_000;

/** What a call needs beyond its operation: where and how requests are sent. */
export interface CallSettings {
  readonly baseUrl: string;
  readonly headers: () => Record<string, string>;
  readonly fetch: typeof fetch;
  readonly timeoutMs: number;
}

/**
 * Sends one operation's request for arguments the binder has already checked, and returns what
 * the model reads: a 2xx response's body; `HTTP 404 Not Found: <body, capped>` for any other
 * status (an answer, not a failure). No response (a network failure, `timeoutMs` passing) is an
 * {@link OpenApiCallError}; the run's AbortSignal cancels the request and its reason is thrown.
 */
export async function callOperation(
  operation: Operation,
  input: OperationInput,
  settings: CallSettings,
  args: Record<string, unknown>,
  context: Pick<ToolContext, 'signal'>,
): Promise<string | ToolError> {
  let url: string;
  try {
    url = requestUrl(settings.baseUrl, operation.path, input.parameters, args);
  } catch (error) {
    if (!(error instanceof PathEscape)) throw error;
    return toolError(
      `The path parameter '${error.parameter}' cannot be empty, '.' or '..': such a value would change the ` +
        'path of the request instead of naming one item. Give the identifier itself.',
    );
  }
  const headers: Record<string, string> = { accept: 'application/json', ...settings.headers() };
  const body = input.body !== undefined && args[BODY] !== undefined ? bodyText(input.body, args[BODY]) : undefined;
  if (body !== undefined) headers['content-type'] = input.body!.mediaType;
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const signal = AbortSignal.any([context.signal, timeout]);
  let response: Response;
  let text: string;
  try {
    response = await settings.fetch(url, {
      method: operation.method.toUpperCase(),
      headers,
      ...(body === undefined ? {} : { body }),
      signal,
    });
    text = await response.text();
  } catch (error) {
    if (context.signal.aborted) throw context.signal.reason;
    if (timeout.aborted)
      throw new OpenApiCallError(
        'openapi_timeout',
        operation.label,
        `${operation.label} got no response within ${settings.timeoutMs} ms; the request was cancelled, and ` +
          'whether it took effect is unknown.',
        { cause: error },
      );
    throw new OpenApiCallError(
      'openapi_request_failed',
      operation.label,
      `${operation.label} got no response: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const status = `HTTP ${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`;
  if (response.ok) return text === '' ? `${status} (no content)` : text;
  return `${status}: ${capped(text)}`;
}

function capped(text: string): string {
  if (text === '') return '(no body)';
  if (text.length <= ERROR_BODY_LIMIT) return text;
  return `${text.slice(0, ERROR_BODY_LIMIT)}… (${text.length - ERROR_BODY_LIMIT} more characters not shown)`;
}
