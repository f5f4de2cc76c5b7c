/**
 * The guard's per-tool records (`successes`, `attempts`), keyed by tool name. A tool may be
 * named `toString`, `constructor` or `__proto__`, and a record may come back from JSON (a
 * suspension from a store) with an ordinary prototype: so records are made without a prototype,
 * copied by own properties, and read only through their own properties.
 */
export type ToolRecord = Record<string, number>;

/** An empty record with no prototype: no tool name finds an inherited value in it. */
export function emptyToolRecord(): ToolRecord {
  return Object.create(null) as ToolRecord;
}

/** A prototype-free copy of a record's own entries (`__proto__` included, as an own entry). */
export function copyToolRecord(record: ToolRecord): ToolRecord {
  const copy = emptyToolRecord();
  for (const key of Object.keys(record)) copy[key] = record[key]!;
  return copy;
}

/** The record's own value for a tool, never one inherited from a prototype. */
export function toolRecordValue(record: ToolRecord, tool: string): number | undefined {
  return Object.hasOwn(record, tool) ? record[tool] : undefined;
}
