import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { builtLegate } from '../support/builtPackage.js';

// The built package carries its own copy of zod, bundled (scripts/build.mjs); a tool author's schemas come from the
// zod installed beside it, a second copy in the same process. The built legate is imported here from dist/, beside
// this file's own `zod` as installed, as an application that declares its tools with zod imports both.

/** The built package's JavaScript files, and the packages each imports by a bare name. */
function builtImports(): { file: string; packages: string[] }[] {
  const files = readdirSync('dist', { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
  return files.map((file) => {
    const text = readFileSync(join('dist', file), 'utf8');
    const packages = [...text.matchAll(/(?:\bfrom|\bimport\(?)\s*["']([^"'./][^"']*)["']/g)].map(([, name]) => name!);
    return { file, packages };
  });
}

describe("a tool author's zod beside the copy the built package carries", () => {
  it('the built package imports no zod as installed: its schemas and the author’s are two copies', async () => {
    await builtLegate();
    const imports = builtImports();
    expect(imports.length).toBeGreaterThan(10);
    expect(imports.filter(({ packages }) => packages.some((name) => /^zod(\/|$)/.test(name)))).toEqual([]);
    // The pattern finds the packages the build leaves as installed (the check above could fail).
    expect(imports.flatMap(({ packages }) => packages)).toContain('@anthropic-ai/sdk');
  });

  it("declares a tool from the author's schema: its descriptions, bounds, defaults and refinements", async () => {
    await builtLegate();
    const built = (await import(pathToFileURL(resolve('dist/src/index.js')).href)) as typeof import('legate');
    const input = z
      .object({
        city: z.string().min(2).describe('The city to look up.'),
        days: z.number().int().max(14).default(3),
      })
      .refine((value) => value.city !== 'Atlantis', { message: 'Atlantis has no forecast.' });
    const tool = built.defineTool({ name: 'forecast', description: 'Forecasts.', input, run: () => 'sunny' });

    expect(tool.definition().input_schema).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 2, description: 'The city to look up.' },
        days: { type: 'integer', maximum: 14, default: 3, minimum: Number.MIN_SAFE_INTEGER },
      },
      required: ['city'],
      additionalProperties: false,
    });
    expect(tool.bind({ city: 'Oslo' })).toEqual({ ok: true, args: { city: 'Oslo', days: 3 } });
    expect(tool.bind({ city: 'O' })).toMatchObject({ ok: false, invalid: { code: 'too_short', path: ['city'] } });
    expect(tool.bind({ city: 'Oslo', days: 15 })).toMatchObject({ ok: false, invalid: { code: 'out_of_range' } });
    expect(tool.bind({ city: 'Atlantis' })).toMatchObject({
      ok: false,
      invalid: { code: 'failed_rule', message: expect.stringContaining('Atlantis has no forecast.') },
    });
  });
});
