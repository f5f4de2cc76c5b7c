import { HttpResponse, http } from 'msw';
import { API_URL, errorBody } from './anthropicApi.js';

// The Messages API's rule for the property names of a tool's input_schema, as the API enforces it: the oracle
// legate's own check (src/tools/schema/propertyNameRule.ts) is tested against, written from the API's 400 and
// not from legate's code. The error text is the API's, as reported against Claude Code and MCP servers, e.g.
// github.com/beautyfree/appstore-connect-mcp/issues/2 and github.com/decocms/studio/pull/6874:
//   API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":
//   "tools.14.custom.input_schema.properties: Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'"}}
// The API checks the top-level `properties` only (aws-solutions-library-samples/accelerated-intelligent-
// document-processing-on-aws#709: a bad key nested in a property, in array items or in a definition is accepted).

/** The API's pattern for a top-level property key, as its error message writes it. */
const RULE = '^[a-zA-Z0-9_.-]{1,64}$';
export const API_PROPERTY_KEY = new RegExp(RULE);

/** The API's error body for a request whose tool breaks the rule, or undefined when every tool keeps it. */
export function propertyKeyRefusal(request: { tools?: readonly unknown[] }): Record<string, unknown> | undefined {
  for (const [i, tool] of (request.tools ?? []).entries()) {
    const schema = (tool as { input_schema?: { properties?: unknown } }).input_schema;
    const properties = schema?.properties;
    if (typeof properties !== 'object' || properties === null) continue;
    if (Object.keys(properties).every((key) => API_PROPERTY_KEY.test(key))) continue;
    return {
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: `tools.${i}.custom.input_schema.properties: Property keys should match pattern '${RULE}'`,
      },
    };
  }
  return undefined;
}

/**
 * The Messages API for msw, as far as a test needs it: a request that breaks the rule above gets the API's
 * 400; any other gets the next of `answers`. The request bodies are kept, as sent.
 */
export function messagesApiHoldingToolRules(answers: (() => Response)[]) {
  const bodies: Record<string, unknown>[] = [];
  let call = 0;
  const handler = http.post(API_URL, async ({ request }) => {
    const body = (await request.json()) as Record<string, unknown>;
    bodies.push(body);
    const refused = propertyKeyRefusal(body as { tools?: unknown[] });
    if (refused !== undefined) return HttpResponse.json(refused, { status: 400 });
    const answer = answers[call++];
    if (answer === undefined)
      return HttpResponse.json(errorBody('invalid_request_error', 'no more scripted answers'), { status: 400 });
    return answer();
  });
  return { handler, bodies };
}
