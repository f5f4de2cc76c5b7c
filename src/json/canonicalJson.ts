import { createHash } from 'node:crypto';
import { jsonText } from './jsonText.js';

/**
 * JSON with object keys sorted at every level: the same value always gives the same text,
 * whatever order its keys were written in. Used for digests and for comparing values.
 * Written without recursion, so a value of any depth has one.
 */
export function canonicalJson(value: unknown): string {
  return jsonText(value, { sortKeys: true }) ?? 'undefined';
}

/** `sha256:` and the first 16 hex digits of the canonical JSON's SHA-256: short, stable, readable. */
export function digestOf(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 16)}`;
}
