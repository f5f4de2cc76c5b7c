import { readFileSync, readdirSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';

const schema = JSON.parse(readFileSync('schema/trajectory-v1.schema.json', 'utf8')) as object;
const validate = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true, validateFormats: false }).compile(schema);
const files = readdirSync('trajectories').filter((name) => name.endsWith('.yaml'));

describe('the shipped JSON Schema for trajectories', () => {
  it.each(files)('accepts %s', (name) => {
    const document = YAML.parse(readFileSync(`trajectories/${name}`, 'utf8')) as unknown;
    expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
  });

  it('refuses what the reader refuses: a result with an unknown outcome, a block of no known kind', () => {
    const document = YAML.parse(readFileSync(`trajectories/${files[0]}`, 'utf8')) as { turns: { response: { content: unknown[] }; results?: { outcome: string }[] }[] };
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
});
