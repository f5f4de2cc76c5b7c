import { describe, expect, it, vi } from 'vitest';
import { benchOpenApi } from '../../bench/openapi.bench.js';

/**
 * The OpenAPI bench times openApiTools over Box's document beside the parser's dereference of it; the
 * comparison is only honest if both read the whole document: each operation throws unless every path is
 * dereferenced and every one of the 296 operations is accounted for (a tool or a skip).
 */
describe('OpenAPI bench', () => {
  it('builds from every operation and dereferences every path, then prints both and their ratio', async () => {
    // Each timed operation checks its own work (bench/openapi.bench.ts) and throws when it fell short.
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    try {
      await benchOpenApi({ rounds: 1, roundMs: 1 });
    } finally {
      log.mockRestore();
    }
    const figure = String.raw`\d+\.\d \(\d+\.\d-\d+\.\d\) ms$`;
    expect(lines[0]).toMatch(/^OpenAPI: Box Platform API, 296 operations, 1\.7 MB JSON -> \d+ tools \(CPU time/);
    expect(lines[1]).toMatch(/^ {2}openApiTools beside the parser's dereference alone$/);
    expect(lines[2]).toMatch(new RegExp(String.raw`legate openApiTools \(all operations\)\s+${figure}`));
    expect(lines[3]).toMatch(new RegExp(String.raw`@readme/openapi-parser dereference\s+${figure}`));
    expect(lines[4]).toMatch(/^ {4}ratio \d+\.\d\dx the anchor's cost$/);
    expect(lines[5]).toMatch(new RegExp(String.raw`\(parser validate \+ dereference\): ${figure}`));
  });
});
