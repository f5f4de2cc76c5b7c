import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from '../../json/canonicalJson.js';
import type { Suspension, ToolCall } from '../agentResult.js';

export const SUSPENSION_VERSION = 1;

/** The suspension's HMAC under a key: over its canonical JSON, its signature left out. */
export function signatureOf(suspension: Suspension, key: string | Uint8Array): string {
  const { signature: _ignored, ...signed } = suspension;
  return `hmac-sha256:${createHmac('sha256', key).update(canonicalJson(signed)).digest('hex')}`;
}

/** True when the suspension carries the signature its contents and the key produce. */
export function hasValidSignature(suspension: Suspension, key: string | Uint8Array): boolean {
  if (typeof suspension.signature !== 'string') return false;
  const expected = Buffer.from(signatureOf(suspension, key));
  const actual = Buffer.from(suspension.signature);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * A copy safe to store: a thrown value is reduced to its class, as the model was told. Its message
 * (which can hold a credential, a URL with a token) stays in the live result and is never stored.
 */
export function serializable(call: ToolCall): ToolCall {
  if (call.error?.error !== 'tool_failed') return call;
  const cause = call.error.cause;
  return { ...call, error: { ...call.error, cause: { name: cause instanceof Error ? cause.name : typeof cause } } };
}
