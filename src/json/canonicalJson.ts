import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level: the same value always gives the same text,
 * whatever order its keys were written in. Used for digests and for comparing values.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'undefined';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    Object.defineProperty(sorted, key, { value: sortKeys((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
  }
  return sorted;
}

/** `sha256:` and the first 16 hex digits of the canonical JSON's SHA-256: short, stable, readable. */
export function digestOf(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 16)}`;
}
