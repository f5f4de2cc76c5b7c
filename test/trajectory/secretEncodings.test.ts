import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findSecret,
  loadTrajectory,
  saveTrajectory,
  serializeTrajectory,
  SecretInTrajectoryError,
  type Trajectory,
} from '../../src/index.js';
import { useTempDir } from '../support/tempDir.js';
import {
  API_KEY,
  BEARER_SEPARATORS,
  BEARER_TOKEN,
  BEARER_WORDS,
  DECLARED,
  DECLARED_PATTERNS,
  DECLARED_QUOTED,
  ENCODINGS,
  INVISIBLE,
  KEY_PREFIXES,
  SECRETS,
} from './secretForms.js';

const tempDir = useTempDir();
const corpus = loadTrajectory('trajectories/handoff-to-billing.yaml');

/** The corpus run with a tool's output replaced by a text. */
function withOutput(text: string): Trajectory {
  const copy = structuredClone(corpus);
  copy.turns[0]!.results![0]!.content = `log line: ${text} (end)`;
  return copy;
}

function refusal(trajectory: Trajectory): SecretInTrajectoryError {
  const file = join(tempDir(), 'run.yaml');
  let error: unknown;
  try {
    saveTrajectory(file, trajectory, { secrets: DECLARED_PATTERNS });
  } catch (e) {
    error = e;
  }
  expect(existsSync(file)).toBe(false);
  expect(error).toBeInstanceOf(SecretInTrajectoryError);
  return error as SecretInTrajectoryError;
}

describe('the secret scan sees through the ordinary encodings', () => {
  const bearers = BEARER_WORDS.flatMap((word) =>
    BEARER_SEPARATORS.map(
      (separator) => [`${JSON.stringify(word + separator)}`, `${word}${separator}${BEARER_TOKEN}`] as const,
    ),
  );
  it.each(bearers)('refuses a bearer token written %s', (_label, text) => {
    expect(refusal(withOutput(text)).finding.kind).toBe('bearer_token');
  });

  it.each(KEY_PREFIXES.map((prefix) => [prefix]))('refuses an API key whose prefix is written %s', (prefix) => {
    expect(refusal(withOutput(prefix + API_KEY.slice('sk-ant-'.length))).finding.kind).toBe('api_key');
  });

  it.each(INVISIBLE.map((c) => [`U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`, c]))(
    'refuses an API key broken by %s',
    (_label, c) => {
      refusal(withOutput(`${API_KEY.slice(0, 10)}${c}${API_KEY.slice(10)}`));
      refusal(withOutput(`${c}${API_KEY}${c}`));
    },
  );

  const encoded = SECRETS.flatMap((secret) =>
    Object.entries(ENCODINGS).map(([name, encode]) => [secret.label, name, encode(secret.written)] as const),
  );
  it.each(encoded)('refuses a %s written %s', (_secret, _encoding, text) => {
    refusal(withOutput(text));
  });

  // Found by the property test (seed 1998476193): a tool's JSON output holding a header that was
  // itself JSON-escaped puts two levels of escaping between `Bearer` and its token.
  it.each(
    BEARER_SEPARATORS.filter((separator) => separator.trim() === '').map((separator) => [
      JSON.stringify(separator),
      separator,
    ]),
  )(
    'refuses a bearer token separated by %s and escaped twice, as JSON text inside a JSON string',
    (_label, separator) => {
      const header = JSON.stringify(`BEARER${separator}${BEARER_TOKEN}`).slice(1, -1);
      expect(refusal(withOutput(JSON.stringify({ data: { token: header } }))).finding.kind).toBe('bearer_token');
    },
  );

  it('refuses a declared secret whose quote and backslash the YAML writer escapes', () => {
    // A leading quote makes the writer double-quote the value: `"'pa\"ss'w\\rd-991"`.
    const error = refusal(withOutput(`'${DECLARED_QUOTED}`));
    expect(error.finding).toMatchObject({ kind: 'declared', declared: 1 });
  });

  it('refuses a declared secret used as an object key', () => {
    const trajectory = structuredClone(corpus);
    const block = trajectory.turns[0]!.response.content[0] as { toolUse: { input: Record<string, unknown> } };
    block.toolUse.input[`x-${DECLARED}`] = 'on';
    const error = refusal(trajectory);
    expect(error.finding.kind).toBe('declared');
  });

  it('finds nothing in ordinary prose, the corpus, or a bearer of good news', () => {
    expect(
      findSecret('The bearer instrument was signed. Bearer bonds are rare. A BEARER OF GOOD NEWS.'),
    ).toBeUndefined();
    expect(() => saveTrajectory(join(tempDir(), 'clean.yaml'), corpus, { secrets: DECLARED_PATTERNS })).not.toThrow();
  });
});

describe('a refusal says where and what, never any part of the secret', () => {
  it.each(SECRETS.map((secret) => [secret.label, secret] as const))('for a %s', (_label, secret) => {
    const { message } = refusal(withOutput(secret.written));
    expect(message).toMatch(/run\.yaml:\d+:\d+: the recording holds /);
    // No run of 4 or more of the secret's own characters (an API key's are those after its fixed `sk-ant-`) appears in
    // the message.
    const own = secret.value.startsWith('sk-ant-') ? secret.value.slice('sk-ant-'.length) : secret.value;
    for (let i = 0; i + 4 <= own.length; i++) expect(message).not.toContain(own.slice(i, i + 4));
  });

  it('names the object whose key holds a secret, never the key', () => {
    // Escaped three times as JSON, and once more by the YAML writer: the text's escapes nest one
    // level deeper than the scan undoes, so only the scan of the values finds it.
    const jsonEscaped = (text: string) => JSON.stringify(text).slice(1, -1);
    const key = `${jsonEscaped(jsonEscaped(jsonEscaped(DECLARED_QUOTED)))}\nnext line`;
    const trajectory = structuredClone(corpus);
    const block = trajectory.turns[0]!.response.content[0] as { toolUse: { input: Record<string, unknown> } };
    block.toolUse.input = { outer: { [key]: 1 } };
    const { message, finding } = refusal(trajectory);
    expect(finding.path).toBe('a key of turns[0].response.content[0].toolUse.input.outer');
    expect(message).not.toContain('ss');
    expect(message).not.toContain('991');
    // The line and column point at the key as written.
    const line = serializeTrajectory(trajectory).split('\n')[finding.line - 1]!;
    expect(line.slice(finding.column - 1)).toMatch(/^(\? )?"pa/);
  });

  it('names a declared secret by its place in the list, not by its pattern', () => {
    const { message, finding } = refusal(withOutput(SECRETS[2]!.written));
    expect(message).toContain('declared secret #1');
    expect(message).not.toContain('ACME');
    expect(message).not.toContain('7731');
    expect(finding).toMatchObject({ kind: 'declared', declared: 0, encoding: 'plain' });
  });

  it(
    'property: a finding points into the written form of the secret, whatever its encoding and the lines before ' +
      'it',
    () => {
      fc.assert(
        fc.property(
          fc.array(fc.constantFrom('alpha beta', 'x: 1', '', 'say "hi" \\ 50%', 'zero\u200Bwidth', "it''s"), {
            maxLength: 5,
          }),
          fc.constantFrom(...Object.keys(ENCODINGS)),
          fc.constantFrom(...SECRETS),
          fc.constantFrom('', 'id ', '- ', 'é '),
          (lines, encoding, secret, lead) => {
            const encoded = ENCODINGS[encoding]!(secret.written);
            const finding = findSecret([...lines, `${lead}${encoded} tail`].join('\n'), DECLARED_PATTERNS);
            expect(finding?.line).toBe(lines.length + 1);
            expect(finding!.column - 1).toBeGreaterThanOrEqual(lead.length);
            expect(finding!.column - 1).toBeLessThan(lead.length + encoded.length);
          },
        ),
      );
    },
  );

  it('names the encoding and the line of a base64-encoded secret', () => {
    const { message, finding } = refusal(withOutput(ENCODINGS['base64 at 1']!(API_KEY)));
    expect(finding.encoding).toBe('base64');
    expect(message).toContain('in base64');
    const text = saveTextOf(withOutput('marker'));
    expect(finding.line).toBe(text.split('\n').findIndex((line) => line.includes('marker')) + 1);
  });
});

function saveTextOf(trajectory: Trajectory): string {
  const file = join(tempDir(), 'probe.yaml');
  saveTrajectory(file, trajectory);
  return readFileSync(file, 'utf8');
}
