import { readFileSync } from 'node:fs';
import { defineTool } from 'legate';

/**
 * A real-world tool (tau2-bench's telecom `set_apn_settings`, its schema as pydantic 2 wrote it; provenance
 * in the fixture): a `$ref` to a `$defs` object whose members are `$ref`s to an enum and nullable unions
 * (`anyOf: [T, {type: 'null'}]`, several with `default: null`), beside a free-form object alternative
 * (`additionalProperties: true`).
 */
const fixture = JSON.parse(
  readFileSync(
    new URL('../test/fixtures/tool-schemas/python-openapi/tau2-telecom__set_apn_settings.json', import.meta.url),
    'utf8',
  ),
) as { tool: string; description: string; inputSchema: Record<string, unknown> };

/** Defined when the benchmark runs, so the benchmarks before it run whatever happens here. */
export function setApnSettings() {
  return defineTool({
    name: fixture.tool,
    description: fixture.description,
    input: fixture.inputSchema,
    run: () => 'ok',
  });
}

/** Takes the `$ref` alternative: an enum member by `$ref`, nulls where the unions take null, one default left out. */
export const validApnSettings = {
  apn_settings: {
    apn_name: 'internet',
    mms_apn: null,
    mmsc_url: 'http://mms.carrier.com/mms/wapenc',
    mms_proxy: null,
    mms_port: 8080,
  },
};

/** Takes the free-form alternative: a key the `$ref` object does not declare. */
export const freeFormApnSettings = { apn_settings: { apn_name: 'internet', vendor: { id: 7, beta: true } } };
