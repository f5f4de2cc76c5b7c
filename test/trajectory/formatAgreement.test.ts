import { readFileSync, readdirSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { TrajectoryFormatError, parseTrajectory } from '../../src/index.js';
import { normalize } from '../../src/trajectory/format/normalize.js';
import { planOf } from '../../src/trajectory/format/plan.js';
import { trajectoryFormat } from '../../src/trajectory/format/trajectory.js';
import { readTrajectory } from '../../src/trajectory/readTrajectory.js';
import { undescribedTurnAgent } from '../../src/trajectory/turnAgent.js';
import type { RecordedSubRun } from '../../src/trajectory/types.js';

const schema = JSON.parse(readFileSync('schema/trajectory-v1.schema.json', 'utf8')) as object;
const validate = new Ajv2020({ strict: true, allowUnionTypes: true, validateFormats: false }).compile(schema);
const documents = readdirSync('trajectories')
  .filter((name) => name.endsWith('.yaml'))
  .map((name) => YAML.parse(readFileSync(`trajectories/${name}`, 'utf8')) as unknown);

/**
 * Every path in a document, to a mapping, a list or a scalar, except the version (a newer one is the reader's own
 * refusal).
 */
function pathsOf(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  const here = path.length === 0 ? [] : [path];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, i) => pathsOf(item, [...path, i]))];
  if (typeof value === 'object' && value !== null) {
    return [
      ...here,
      ...Object.entries(value).flatMap(([key, item]) =>
        path.length === 0 && key === 'version' ? [] : pathsOf(item, [...path, key]),
      ),
    ];
  }
  return here;
}

function replaced(document: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(document) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[path[path.length - 1]!] = value;
  return copy;
}

/**
 * JSON values without null: the reader takes an optional field written as null as absent, which the schema does not
 * say.
 */
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ maxLength: 8 }),
    fc.constantFrom('text', 'toolUse', 'ok', 'end_turn', 'sha256:00', '2026-11-29T18:00:00.000Z', ''),
    fc.integer({ min: -3, max: 5 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('text', 'type', 'id', 'name', 'input', 'x'), tie('value'), { maxKeys: 3 }),
  ),
})).value;

describe('the reader and the generated JSON Schema', () => {
  it('agree on every corpus file with one field replaced by any value, and the reader places each refusal in the ' +
    'file', () => {
    const edits = fc
      .nat({ max: documents.length - 1 })
      .chain((index) => fc.tuple(fc.constant(index), fc.constantFrom(...pathsOf(documents[index])), value));
    fc.assert(
      fc.property(edits, ([index, path, replacement]) => {
        const document = replaced(documents[index], path, replacement);
        let readerAccepts = true;
        try {
          readTrajectory(document);
        } catch {
          readerAccepts = false;
        }
        // By design the schema cannot say that a turn's agent must be one the file describes.
        const schemaAccepts =
          validate(document) && undescribedTurnAgent(document as RecordedSubRun, 'file') === undefined;
        expect(readerAccepts, `${path.join('.')} = ${JSON.stringify(replacement)}`).toBe(schemaAccepts);
        if (!readerAccepts) {
          let error: unknown;
          try {
            parseTrajectory(YAML.stringify(document), 'edited.yaml');
          } catch (caught) {
            error = caught;
          }
          expect(error).toBeInstanceOf(TrajectoryFormatError);
          expect((error as TrajectoryFormatError).line).toBeGreaterThan(0);
          expect((error as TrajectoryFormatError).problem).toMatch(/ should be | is missing/);
        }
      }),
      { numRuns: 400 },
    );
  }, 60_000);

  it("the reader's walk and the format's schema give the same verdict, so a file that fits skips the schema", () => {
    const plan = planOf(trajectoryFormat);
    // Nulls too: an optional field written as null is absent for both, a required one is refused by both.
    const anyValue = fc.oneof(value, fc.constant(null));
    const edits = fc
      .nat({ max: documents.length - 1 })
      .chain((index) => fc.tuple(fc.constant(index), fc.constantFrom(...pathsOf(documents[index])), anyValue));
    let misfits = 0;
    fc.assert(
      fc.property(edits, ([index, path, replacement]) => {
        let walked: { value: unknown; fits: boolean };
        try {
          walked = normalize(replaced(documents[index], path, replacement), plan);
        } catch {
          return; // a free value's JSON text refused by the walk itself
        }
        if (!walked.fits) misfits++;
        const schemaSays = trajectoryFormat.safeParse(walked.value).success;
        expect(walked.fits, `${path.join('.')} = ${JSON.stringify(replacement)}`).toBe(schemaSays);
      }),
      { numRuns: 1500 },
    );
    // The edits reach both verdicts, so the agreement is not vacuous.
    expect(misfits).toBeGreaterThan(100);
  }, 60_000);

  it('agree at every place of every corpus file, for each kind of scalar put there', () => {
    const plan = planOf(trajectoryFormat);
    const scalars = [null, true, -1, 0, 1.5, '', 'text', '2026-11-29T18:00:00.000Z'];
    let disagreements: string[] = [];
    for (const document of documents) {
      for (const path of pathsOf(document)) {
        for (const scalar of scalars) {
          let walked: { value: unknown; fits: boolean };
          try {
            walked = normalize(replaced(document, path, scalar), plan);
          } catch {
            continue;
          }
          if (walked.fits !== trajectoryFormat.safeParse(walked.value).success) {
            disagreements = [...disagreements, `${path.join('.')} = ${JSON.stringify(scalar)}`];
          }
        }
      }
    }
    expect(disagreements).toEqual([]);
  }, 60_000);

  it('agree on every corpus file as it is', () => {
    const plan = planOf(trajectoryFormat);
    for (const document of documents) expect(normalize(document, plan).fits).toBe(true);
  });
});
