import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { defineTool, type AnyTool } from '../../src/index.js';
import { fuzzTool, malformedInput, validInput } from '../../src/fuzz/index.js';
import { AjvOracle } from '../support/ajvOracle.js';
import { explainDisagreement } from '../support/explainDisagreement.js';
import { mutatedInput } from '../support/mutatedInput.js';
import { legateToolName, toolSchemaFixtures, type ToolSchemaFixture } from '../support/toolSchemaFixtures.js';

// The corpus of real tool input schemas (test/fixtures/tool-schemas, issue 13): every one defines a
// tool, fuzzes clean, and binds as ajv validates, on at least 2,000 generated inputs, except where
// an intentional difference (SCHEMA_SPEC.md) accounts for the disagreement.

const SEED = 1313;
/** Inputs per schema for the differential, by source: 2,000 in all. */
const PER_SOURCE = { valid: 700, malformed: 650, mutated: 650 } as const;
type Source = keyof typeof PER_SOURCE;
/** fuzzTool's own properties: kept small, the differential is where the volume is. */
const FUZZ_RUNS = 40;

const fixtures = toolSchemaFixtures();

interface Tally {
  cases: Record<Source, number>;
  agreed: number;
  notJson: number;
  /** Disagreements, by the intentional differences that account for them (joined with '+'). */
  explained: Map<string, number>;
}
const tallies = new Map<string, Tally>();

function seedOf(file: string): number {
  let hash = SEED;
  for (const char of file) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

function define(fixture: ToolSchemaFixture): AnyTool {
  return defineTool({
    name: legateToolName(fixture.tool),
    description: fixture.description ?? undefined,
    input: fixture.inputSchema as never,
    run: () => 'ok',
  });
}

function inputsFor(tool: AnyTool, seed: number): { source: Source; input: unknown }[] {
  const valid = fc.sample(validInput(tool), { seed, numRuns: PER_SOURCE.valid });
  const malformed = fc.sample(malformedInput(tool), { seed: seed + 1, numRuns: PER_SOURCE.malformed });
  // Mutations start from the valid inputs already made (each is cloned before it is changed).
  const mutated = fc.sample(mutatedInput(fc.constantFrom(...valid)), { seed: seed + 2, numRuns: PER_SOURCE.mutated });
  return [
    ...valid.map((input) => ({ source: 'valid' as const, input })),
    ...malformed.map((c) => ({ source: 'malformed' as const, input: c.input })),
    ...mutated.map((c) => ({ source: 'mutated' as const, input: c.input })),
  ];
}

function show(value: unknown): string {
  const text = typeof value === 'string' ? `(JSON text) ${value}` : JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 2_000 ? `${text.slice(0, 2_000)}...` : text;
}

describe('the corpus of real tool schemas', () => {
  it('holds at least 60 schemas, each with its provenance', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(60);
    for (const fixture of fixtures) {
      expect(fixture.provenance.source, fixture.file).toEqual(expect.any(String));
      expect(fixture.provenance.notes, fixture.file).toEqual(expect.any(String));
      expect(fixture.provenance.repository ?? fixture.provenance.package, fixture.file).toEqual(expect.any(String));
      expect(fixture.inputSchema, fixture.file).toEqual(expect.any(Object));
    }
  });

  it.each(fixtures.map((fixture) => [fixture.file, fixture] as const))(
    '%s',
    { timeout: 60_000 },
    async (file, fixture) => {
      // a. It defines a tool.
      const tool = define(fixture);

      // b. fuzzTool finds nothing wrong.
      const report = await fuzzTool(tool, { numRuns: FUZZ_RUNS, seed: seedOf(file) });
      expect(report.failures, `fuzzTool on ${file}`).toEqual([]);

      // c. The binder accepts and refuses as ajv does, but for the intentional differences.
      const oracle = new AjvOracle(tool.inputSchema);
      const tally: Tally = {
        cases: { valid: 0, malformed: 0, mutated: 0 },
        agreed: 0,
        notJson: 0,
        explained: new Map(),
      };
      tallies.set(file, tally);
      const unexplained: string[] = [];
      let unexplainedCount = 0;
      for (const { source, input } of inputsFor(tool, seedOf(file))) {
        tally.cases[source]++;
        const ajvAccepts = oracle.accepts(input);
        const bound = tool.bind(input);
        const verdict = explainDisagreement(oracle, tool.inputSchema, input, bound, ajvAccepts);
        if (verdict.kind === 'agree') tally.agreed++;
        else if (verdict.kind === 'not-json') tally.notJson++;
        else if (verdict.kind === 'explained') {
          const reason = verdict.differences.join('+');
          tally.explained.set(reason, (tally.explained.get(reason) ?? 0) + 1);
        } else if (unexplainedCount++ < 3) {
          unexplained.push(
            `${file} (${source} input): ${verdict.why}\n  input: ${show(input)}\n` +
              `  ajv: ${ajvAccepts ? 'accepts' : 'refuses'}; binder: ` +
              (bound.ok
                ? `accepts, bound ${show(bound.args)}`
                : `refuses (${bound.invalid.code}): ${bound.invalid.message}`),
          );
        }
      }
      expect(
        unexplained,
        `${unexplainedCount} disagreements with ajv no intentional difference explains, in ${file} (the first 3 shown)`,
      ).toEqual([]);
      const total = tally.cases.valid + tally.cases.malformed + tally.cases.mutated;
      expect(total).toBeGreaterThanOrEqual(2_000);
    },
  );

  afterAll(() => {
    if (tallies.size === 0) return;
    console.log(summary());
  });
});

/** The table for the issue's closing note: schemas, sources, cases, disagreements by reason and by schema. */
function summary(): string {
  const rows = [...tallies];
  const sum = (pick: (t: Tally) => number) => rows.reduce((total, [, t]) => total + pick(t), 0);
  const disagreements = (t: Tally) => [...t.explained.values()].reduce((a, b) => a + b, 0);
  const reasons = new Map<string, { count: number; schemas: number }>();
  for (const [, tally] of rows) {
    for (const [reason, count] of tally.explained) {
      const entry = reasons.get(reason) ?? { count: 0, schemas: 0 };
      reasons.set(reason, { count: entry.count + count, schemas: entry.schemas + 1 });
    }
  }
  const collections = new Map<string, number>();
  for (const fixture of fixtures)
    if (tallies.has(fixture.file)) collections.set(fixture.collection, (collections.get(fixture.collection) ?? 0) + 1);
  const perSchema = rows
    .filter(([, t]) => [...t.explained.keys()].some((reason) => reason !== 'json-text'))
    .map(([file, t]) => {
      const counts = [...t.explained].filter(([reason]) => reason !== 'json-text');
      return `  ${file}: ${counts.map(([reason, count]) => `${reason} ${count}`).join(', ')}`;
    });
  return [
    `schema corpus vs ajv (Ajv2020 + ajv-formats, strict: false), seed ${SEED}`,
    `schemas: ${rows.length} of ${fixtures.length} (${[...collections].map(([c, n]) => `${c} ${n}`).join(', ')})`,
    `cases: ${sum((t) => t.cases.valid + t.cases.malformed + t.cases.mutated)} ` +
      `(valid ${sum((t) => t.cases.valid)}, malformed ${sum((t) => t.cases.malformed)}, ` +
      `mutated ${sum((t) => t.cases.mutated)})`,
    `agreed: ${sum((t) => t.agreed)}; not JSON (NaN/infinity: refused, no oracle): ${sum((t) => t.notJson)}`,
    `disagreements, each explained by intentional differences: ${sum(disagreements)}`,
    ...[...reasons]
      .sort((a, b) => b[1].count - a[1].count)
      .map(
        ([reason, { count, schemas }]) => `  ${reason.padEnd(44)} ${String(count).padStart(7)} in ${schemas} schemas`,
      ),
    'by schema (besides json-text, which every schema has):',
    ...perSchema,
  ].join('\n');
}
