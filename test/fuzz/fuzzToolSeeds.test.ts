import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fuzzTool } from '../../src/fuzz/index.js';
import { defineTool } from '../../src/index.js';
import { SEED_REPORTS, seedReports } from './seedReports.js';

describe('fuzzTool, seed by seed', () => {
  it('draws the cases, finds the failures and shrinks them as before its per-case path was made cheaper', async () => {
    // Written by fuzzTool as it was before (commit 3ceeaac): binding each malformed input twice, building its
    // arbitraries on every call.
    const before: unknown = JSON.parse(readFileSync(SEED_REPORTS, 'utf8'));
    expect(await seedReports({ defineTool, fuzzTool })).toEqual(before);
    // Again, with the arbitraries each schema built once now reused: they keep no state between calls.
    expect(await seedReports({ defineTool, fuzzTool })).toEqual(before);
  });
});
