import { createRequire } from 'node:module';
import type * as OpenTelemetryApi from '@opentelemetry/api';

let loaded: typeof OpenTelemetryApi | undefined;

/**
 * `@opentelemetry/api`, loaded when an agent first runs (its invocation asks for legate's tracer) and kept:
 * importing legate does not load it. It is required: its Node build is CommonJS, the very module an `import
 * '@opentelemetry/api'` gets, and it keeps the registered provider and context manager on a global anyway.
 */
export function openTelemetry(): typeof OpenTelemetryApi {
  loaded ??= createRequire(import.meta.url)('@opentelemetry/api') as typeof OpenTelemetryApi;
  return loaded;
}
