import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryOf } from '../../src/fuzz/arbitraries/arbitraryOf.js';
import { OutputSchemaError } from '../../src/index.js';
import { parsePartialJson } from '../../src/json/partialJson.js';
import { Refusal } from '../../src/tools/binder/invalidArgument.js';
import { prepareOutput, type PreparedOutput } from '../../src/tools/output/prepareOutput.js';
import { AjvOracle } from '../support/ajvOracle.js';
import { contained } from '../support/contained.js';
import { toolSchemaFixtures } from '../support/toolSchemaFixtures.js';

// The class of inputs: the corpus of real tool input schemas (test/fixtures/tool-schemas), each
// asked for as a run's structured answer.

/** The JSON Schema keywords the API's structured outputs accept (its documentation; the SDK's transformJSONSchema). */
const API_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'anyOf',
  'allOf',
  '$ref',
  '$defs',
  'definitions',
  'description',
  'title',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minItems',
  'format',
]);

/** Every schema node of a wire schema, with its path. */
function* nodesOf(node: unknown, path: string): Generator<[string, Record<string, unknown>]> {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
  const schema = node as Record<string, unknown>;
  yield [path, schema];
  for (const keyword of ['properties', '$defs', 'definitions'])
    for (const [name, child] of Object.entries((schema[keyword] as Record<string, unknown>) ?? {}))
      yield* nodesOf(child, `${path}.${keyword}.${name}`);
  if ('items' in schema) yield* nodesOf(schema.items, `${path}.items`);
  for (const union of ['anyOf', 'allOf'])
    for (const [i, child] of ((schema[union] as unknown[]) ?? []).entries())
      yield* nodesOf(child, `${path}.${union}.${i}`);
}

/** The strings of a partial value that are cut short of the whole value's, with their paths. */
function* cutStrings(
  partial: unknown,
  whole: unknown,
  path: (string | number)[] = [],
): Generator<[(string | number)[], string]> {
  if (typeof partial === 'string' && partial !== whole) yield [path, partial];
  if (partial === null || typeof partial !== 'object') return;
  for (const [key, value] of Object.entries(partial)) {
    const at = Array.isArray(partial) ? Number(key) : key;
    yield* cutStrings(value, (whole as Record<string, unknown>)[key], [...path, at]);
  }
}

/** A copy of `value` with `text` at `path`. */
function replaced(value: unknown, path: (string | number)[], text: string): unknown {
  if (path.length === 0) return text;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[path.at(-1)!] = text;
  return copy;
}

/** The corpus's schemas as output schemas: prepared inside each test, where their checks are compiled. */
function preparedCorpus() {
  const prepared: { file: string; output: PreparedOutput }[] = [];
  const refused: { file: string; error: unknown }[] = [];
  for (const fixture of toolSchemaFixtures()) {
    try {
      prepared.push({ file: fixture.file, output: prepareOutput(fixture.inputSchema) });
    } catch (error) {
      refused.push({ file: fixture.file, error });
    }
  }
  return { prepared, refused };
}

describe('output schemas made strict, over the corpus of real schemas', () => {
  it('prepares most of the corpus, and refuses the rest only with an OutputSchemaError naming output paths', () => {
    const { prepared, refused } = preparedCorpus();
    expect(prepared.length).toBeGreaterThan(100);
    for (const { file, error } of refused) {
      expect(error, file).toBeInstanceOf(OutputSchemaError);
      for (const problem of (error as OutputSchemaError).problems) expect(problem.path, file).toMatch(/^output\b/);
    }
  });

  it('sends only keywords the API accepts, with every object closed and every value typed', () => {
    const { prepared } = preparedCorpus();
    for (const { file, output } of prepared) {
      for (const [path, node] of nodesOf(output.format.schema, 'output')) {
        for (const keyword of Object.keys(node))
          expect(API_KEYWORDS.has(keyword), `${file} ${path}.${keyword}`).toBe(true);
        const types = [node.type].flat();
        if (types.includes('object')) expect(node.additionalProperties, `${file} ${path}`).toBe(false);
        if (node.minItems !== undefined) expect([0, 1], `${file} ${path}`).toContain(node.minItems);
        const typed = ['type', 'enum', 'const', 'anyOf', 'allOf', '$ref'].some((k) => k in node);
        expect(typed, `${file} ${path}`).toBe(true);
      }
    }
  });

  it('asks the API for no less than legate accepts: every answer the check accepts, the strict schema accepts', () => {
    const { prepared } = preparedCorpus();
    for (const { file, output } of prepared) {
      const values = arbitraryOf(output.schema, output.schema, false);
      if (values === undefined) continue;
      const oracle = new AjvOracle(output.format.schema);
      fc.assert(
        fc.property(values, (value) => {
          const checked = output.check(value);
          if (checked instanceof Refusal) return;
          expect(oracle.accepts(value, ['legate-formats', 'safe-integers', 'decimal-multipleOf']), file).toBe(true);
        }),
        { numRuns: 8, seed: 14 },
      );
    }
  });

  it('streams every accepted answer into partials that grow to it, values under an enum only whole', () => {
    const { prepared } = preparedCorpus();
    for (const { file, output } of prepared) {
      const values = arbitraryOf(output.schema, output.schema, false);
      if (values === undefined) continue;
      const read = (text: string) => parsePartialJson(text, { partialStringAt: output.partialStringAt });
      fc.assert(
        fc.property(values, fc.array(fc.nat(), { maxLength: 6 }), (value, picks) => {
          const text = JSON.stringify(value);
          const whole = JSON.parse(text) as unknown;
          expect(read(text), file).toEqual({ value: whole });
          const cuts = [...new Set([0, ...picks.map((n) => n % (text.length + 1)), text.length])].sort((a, b) => a - b);
          let previous: { value: unknown } | undefined;
          for (const cut of cuts) {
            const partial = read(text.slice(0, cut));
            if (previous !== undefined) {
              expect(partial, `${file} at ${cut}`).toBeDefined();
              expect(contained(previous.value, partial!.value, output.partialStringAt), `${file} at ${cut}`).toBe(true);
            }
            if (partial !== undefined) {
              expect(contained(partial.value, whole), `${file} at ${cut}`).toBe(true);
              for (const [path, text] of cutStrings(partial.value, whole)) {
                // Told by the binder, not by partialStringAt: a string cut short where only listed values go.
                const refusal = output.check(replaced(whole, path, text));
                const underEnum = refusal instanceof Refusal && refusal.code === 'not_a_known_value';
                expect(underEnum && refusal.path.join('.') === path.join('.'), `${file} ${path.join('.')}`).toBe(false);
              }
            }
            previous = partial;
          }
        }),
        { numRuns: 5, seed: 14 },
      );
    }
  });
});
