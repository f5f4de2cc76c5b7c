import { readFileSync, readdirSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseTrajectory, serializeTrajectory } from '../../src/index.js';
import { trajectoryJsonSchemaText } from '../../src/trajectory/format/trajectoryJsonSchema.js';

const schema = JSON.parse(readFileSync('schema/trajectory-v1.schema.json', 'utf8')) as object;
const validate = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true, validateFormats: false }).compile(
  schema,
);
const files = readdirSync('trajectories').filter((name) => name.endsWith('.yaml'));

describe('the shipped JSON Schema for trajectories', () => {
  it("is the one generated from the format's declaration (run `npm run schema` after changing the format)", () => {
    expect(readFileSync('schema/trajectory-v1.schema.json', 'utf8')).toBe(trajectoryJsonSchemaText());
  });

  it.each(files)('accepts %s', (name) => {
    const document = YAML.parse(readFileSync(`trajectories/${name}`, 'utf8')) as unknown;
    expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
  });

  it('refuses what the reader refuses: a result with an unknown outcome, a block of no known kind', () => {
    const document = YAML.parse(readFileSync(`trajectories/${files[0]}`, 'utf8')) as {
      turns: { response: { content: unknown[] }; results?: { outcome: string }[] }[];
    };
    const broken = structuredClone(document);
    broken.turns[0]!.response.content.push({ picture: 'x' });
    expect(validate(broken)).toBe(false);
    const badOutcome = structuredClone(document);
    const withResults = badOutcome.turns.find((turn) => turn.results !== undefined);
    if (withResults !== undefined) {
      withResults.results![0]!.outcome = 'maybe';
      expect(validate(badOutcome)).toBe(false);
    }
  });

  it(
    'accepts a free value written as JSON text (as the writer writes one too deep for YAML), and refuses both ' +
      'forms at once',
    () => {
      let deep: unknown = 'leaf';
      for (let i = 0; i < 70; i++) deep = { a: deep };
      const trajectory = parseTrajectory(readFileSync('trajectories/tool-failure.yaml', 'utf8'));
      (trajectory.turns[0]!.response.content[0] as { toolUse: { input: unknown } }).toolUse.input = deep;
      const written = serializeTrajectory(trajectory);
      expect(written).toContain('inputJson:');
      const document = YAML.parse(written) as {
        turns: { response: { content: { toolUse: Record<string, unknown> }[] } }[];
      };
      expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
      document.turns[0]!.response.content[0]!.toolUse.input = 1;
      expect(validate(document)).toBe(false);
    },
  );
});
