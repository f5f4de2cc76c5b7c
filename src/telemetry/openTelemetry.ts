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

/** Where `@opentelemetry/api` 1.x keeps what an application registered (a tracer provider, a context manager). */
const REGISTERED = Symbol.for('opentelemetry.js.api.1');

/**
 * Whether an application registered anything with `@opentelemetry/api` in this process (the API keeps it on a global,
 * shared by every copy of the API). When nothing is, every span a run would start is a no-op, so a run learns that
 * it is not traced without loading the API: a `legate replay` with no tracing set up never loads it.
 */
export function openTelemetryRegistered(): boolean {
  return (globalThis as Record<symbol, unknown>)[REGISTERED] !== undefined;
}
