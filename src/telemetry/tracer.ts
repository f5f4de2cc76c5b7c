import type { Tracer } from '@opentelemetry/api';
import { openTelemetry } from './openTelemetry.js';
import { legateVersion } from '../version.js';

const TRACER_NAME = 'legate';

/**
 * legate's tracer from the application's global provider: a no-op until an SDK is registered.
 * Asked for at each run's start (not kept), so a provider registered (or removed) later is used.
 */
export function legateTracer(): Tracer {
  return openTelemetry().trace.getTracer(TRACER_NAME, legateVersion());
}
