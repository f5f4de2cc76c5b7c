import fc from 'fast-check';

/**
 * Any value that comes back from JSON text as it went in. `fc.jsonValue` also makes -0, which JSON writes as 0:
 * data that crosses the wire (an API response, an MCP listing, a file) never holds it, so a round-trip property
 * over it would fail on a value no one can send.
 */
export function jsonData(constraints: fc.JsonSharedConstraints = {}): fc.Arbitrary<unknown> {
  return fc.jsonValue(constraints).map((value) => JSON.parse(JSON.stringify(value)) as unknown);
}
