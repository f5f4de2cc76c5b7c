import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AnyTool, defineTool as DefineTool } from '../../src/index.js';
import type { FuzzReport, fuzzTool as FuzzTool } from '../../src/fuzz/index.js';
import { PUBLISHED_SCHEMAS } from './publishedSchemas.js';

/** Where the reports fuzzTool gave before its per-case path was made cheaper are kept. */
export const SEED_REPORTS = new URL('../fixtures/fuzz/seed-reports.json', import.meta.url);

/** What fuzzTool gave one target for one seed: its report (timing left out), and the inputs it bound. */
export interface SeedReport {
  target: string;
  seed: number;
  report: unknown;
  /** A digest of the inputs the binder was given, in order, a repeat in a row counted once. */
  inputs: string;
}

/** The legate functions the reports are made with: passed in, so code of another version can make them too. */
export interface Legate {
  defineTool: typeof DefineTool;
  fuzzTool: typeof FuzzTool;
}

/**
 * Each target's report for its seeds: tools that pass (an order, a schema of many shapes) and tools whose binder
 * is broken each way fuzzTool reports (their failures hold the shrunk counterexample and its path, so they say
 * which cases were drawn, in which order, and how they shrank).
 */
export async function seedReports({ defineTool, fuzzTool }: Legate): Promise<SeedReport[]> {
  const order = defineTool({
    name: 'place_order',
    description: 'Places an order.',
    input: {
      type: 'object',
      properties: {
        customer: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' },
        amount: { type: 'number', exclusiveMinimum: 0, maximum: 10000 },
        quantity: { type: 'integer', minimum: 1, maximum: 100 },
        currency: { type: 'string', enum: ['EUR', 'USD', 'GBP'] },
        tags: { type: 'array', items: { type: 'string', maxLength: 20 }, maxItems: 5 },
      },
      required: ['customer', 'amount', 'quantity', 'currency'],
    },
    run: () => 'ok',
  });
  const shapes = defineTool({
    name: 'search',
    description: 'Searches.',
    input: PUBLISHED_SCHEMAS.pydanticDefs as never,
    run: () => 'ok',
  });
  // Fixtures: binders broken one way each, around the order's own.
  const binding = (bind: (input: unknown) => ReturnType<AnyTool['bind']>): AnyTool => ({ ...order, bind });
  const targets: [string, AnyTool, number[]][] = [
    ['order', order, [1, 2]],
    ['shapes', shapes, [1]],
    ['coercing', binding((input) => order.bind(numbersOf(input))), [1]],
    [
      'throwing',
      binding((input) => {
        if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new TypeError('no object');
        return order.bind(input);
      }),
      [1],
    ],
    [
      'refusing elsewhere',
      binding((input) => {
        const bound = order.bind(input);
        return bound.ok ? bound : { ok: false, invalid: { ...bound.invalid, path: ['elsewhere'] } };
      }),
      [1],
    ],
    [
      'refusing anonymously',
      binding((input) => {
        const bound = order.bind(input);
        return bound.ok ? bound : { ok: false, invalid: { ...bound.invalid, message: 'Refused.' } };
      }),
      [1],
    ],
    [
      'dropping tags',
      binding((input) => {
        const bound = order.bind(input);
        if (!bound.ok) return bound;
        const { tags: _, ...rest } = bound.args as Record<string, unknown>;
        return { ok: true, args: rest };
      }),
      [1],
    ],
  ];
  const reports: SeedReport[] = [];
  for (const [target, tool, seeds] of targets) {
    for (const seed of seeds) {
      const inputs = createHash('sha256');
      let last: string | undefined;
      const watched: AnyTool = {
        ...tool,
        bind: (input: unknown) => {
          const text = canonical(input);
          if (text !== last) inputs.update(`${text}\n`);
          last = text;
          return tool.bind(input);
        },
      };
      const { seconds: _, casesPerSecond: __, ...report }: FuzzReport = await fuzzTool(watched, { numRuns: 200, seed });
      reports.push({ target, seed, report: JSON.parse(canonical(report)), inputs: inputs.digest('hex') });
    }
  }
  return reports;
}

/** A numeric string sent as the quantity turned into a number: a binder that coerces instead of refusing. */
function numbersOf(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || !('quantity' in input)) return input;
  const { quantity } = input;
  const coerced = typeof quantity === 'string' && quantity.trim() !== '' ? Number(quantity) : quantity;
  return Number.isNaN(coerced) ? input : { ...input, quantity: coerced };
}

/** JSON text that tells apart what JSON would not: -0, NaN, the infinities, undefined. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) => {
    if (member === undefined) return '<undefined>';
    if (typeof member === 'number' && (!Number.isFinite(member) || Object.is(member, -0)))
      return `<${Object.is(member, -0) ? '-0' : String(member)}>`;
    return member;
  });
}

// `npx tsx test/fuzz/seedReports.ts` rewrites the fixture (then `npx biome check --write` it), for a change meant
// to draw other cases.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { defineTool } = await import('../../src/index.js');
  const { fuzzTool } = await import('../../src/fuzz/index.js');
  writeFileSync(SEED_REPORTS, `${JSON.stringify(await seedReports({ defineTool, fuzzTool }), null, 2)}\n`);
}
