import { StoreError } from './stateStore.js';

/** SQLSTATEs and socket errors that say the server is out of reach, or left the connection. */
const CONNECTION_CODES = new Set([
  '57P01', // admin_shutdown: pg_terminate_backend, or the server stopping
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

function lostConnection(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (code.startsWith('08') || CONNECTION_CODES.has(code))) return true;
  // What pg says when the socket closes under a query, without a code.
  return typeof message === 'string' && /^Connection terminated/.test(message);
}

/**
 * `error` as the store reports it: a lost or refused connection becomes a `StoreError` with code
 * `store_unavailable`, which says whether the operation may have taken effect; anything else is
 * passed on unchanged.
 */
export function unavailableOrCause(error: unknown, what: string, outcome: string): unknown {
  if (!lostConnection(error)) return error;
  return new StoreError(
    'store_unavailable',
    `${what} did not complete: the connection to PostgreSQL failed (${String((error as Error).message)}). ${outcome}`,
    { cause: error },
  );
}
