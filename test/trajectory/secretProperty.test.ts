import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  loadTrajectory,
  saveTrajectory,
  SecretInTrajectoryError,
  type Redaction,
  type Trajectory,
} from '../../src/index.js';
import { useTempDir } from '../support/tempDir.js';
import {
  BEARER_SEPARATORS,
  BEARER_WORDS,
  DECLARED_PATTERNS,
  ENCODINGS,
  INVISIBLE,
  KEY_PREFIXES,
  SECRETS,
  formsOf,
  type Secret,
} from './secretForms.js';

const tempDir = useTempDir();
const corpus = readdirSync('trajectories')
  .filter((name) => name.endsWith('.yaml'))
  .map((name) => loadTrajectory(join('trajectories', name)));

type Placement = (t: Trajectory, carrier: string) => void;
const digest = 'sha256:0000000000000000';
const firstTurn = (t: Trajectory) => t.turns[0]!;
const results = (t: Trajectory) => (firstTurn(t).results ??= []);

/** Every kind of field a secret can reach: what the run said, and the file's metadata. */
const PLACEMENTS: Record<string, Placement> = {
  'response text': (t, c) => void firstTurn(t).response.content.push({ text: c }),
  thinking: (t, c) => void firstTurn(t).response.content.push({ thinking: c, signature: 'sig' }),
  'tool input value': (t, c) =>
    void firstTurn(t).response.content.push({
      toolUse: { id: 'toolu_p', name: 'probe', input: { query: { deep: [c] } } },
    }),
  'tool input key': (t, c) =>
    void firstTurn(t).response.content.push({
      toolUse: { id: 'toolu_p', name: 'probe', input: { outer: { [c]: 1 } } },
    }),
  'tool name in a call': (t, c) =>
    void firstTurn(t).response.content.push({ toolUse: { id: 'toolu_p', name: c, input: {} } }),
  'tool output text': (t, c) =>
    void results(t).push({ id: 'toolu_p', tool: 'probe', outcome: 'ok', content: `output: ${c}` }),
  'tool output object': (t, c) =>
    void results(t).push({
      id: 'toolu_p',
      tool: 'probe',
      outcome: 'ok',
      content: JSON.stringify({ data: { token: c, list: [c] } }),
    }),
  'tool output blocks': (t, c) =>
    void results(t).push({ id: 'toolu_p', tool: 'probe', outcome: 'ok', content: [{ type: 'text', text: c }] }),
  'result tool name': (t, c) => void results(t).push({ id: 'toolu_p', tool: c, outcome: 'ok', content: '' }),
  'user input': (t, c) => {
    t.input = typeof t.input === 'string' ? `${t.input} ${c}` : [...t.input, { type: 'text', text: c }];
  },
  'system prompt': (t, c) => {
    t.request.system = `${t.request.system ?? ''} ${c}`;
  },
  'agents header system': (t, c) => {
    t.agents ??= {};
    t.agents.probe = { request: { model: 'm', maxTokens: 10, system: c }, tools: [] };
  },
  'agents header name': (t, c) => {
    t.agents ??= {};
    t.agents[c] = { request: { model: 'm', maxTokens: 10 }, tools: [] };
  },
  'agents header tool': (t, c) => {
    t.agents ??= {};
    t.agents.probe = { request: { model: 'm', maxTokens: 10 }, tools: [{ name: c, digest }] };
  },
  description: (t, c) => {
    t.description = c;
  },
  'trajectory name': (t, c) => {
    t.name = c;
  },
  'agent name': (t, c) => {
    t.agent = c;
  },
  model: (t, c) => {
    t.model = c;
  },
  'header tool name': (t, c) => void t.tools.push({ name: c, digest }),
  'tool policy': (t, c) => void t.tools.push({ name: 'probe', policy: c, digest }),
  'handoff reason': (t, c) => {
    t.summary.handoffs = [{ from: 'a', to: 'b', reason: c, turn: 1 }];
  },
  'approval reason': (t, c) => {
    firstTurn(t).approvals = [{ id: 'toolu_p', approve: false, reason: c }];
  },
  clock: (t, c) => {
    t.clock = [c];
  },
};

/** The secret as it appears in use, in one of its case and spacing variants. */
function variant(secret: Secret, pick: number): string {
  if (secret.label === 'API key')
    return KEY_PREFIXES[pick % KEY_PREFIXES.length] + secret.value.slice('sk-ant-'.length);
  if (secret.label === 'bearer token') {
    const word = BEARER_WORDS[pick % BEARER_WORDS.length];
    const separator = BEARER_SEPARATORS[pick % BEARER_SEPARATORS.length];
    return `${word}${separator}${secret.value}`;
  }
  return secret.written;
}

/**
 * Whether a written file holds the secret in any of the ordinary encodings, in its text or in any value or key read
 * back.
 */
function holds(text: string, secret: Secret): string | undefined {
  const strip = (s: string) => [...s].filter((c) => !(INVISIBLE as readonly string[]).includes(c)).join('');
  const texts = [text, strip(text)];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') texts.push(strip(value));
    else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null)
      for (const [key, inner] of Object.entries(value)) {
        texts.push(strip(key));
        walk(inner);
      }
  };
  walk(YAML.parse(text));
  for (const form of formsOf(secret.value)) {
    const found = texts.find((t) =>
      form === secret.value ? t.toLowerCase().includes(form.toLowerCase()) : t.includes(form),
    );
    if (found !== undefined) return form;
  }
  return undefined;
}

/** Redactions a careful user declares: each secret's plain form, which the scan must back up for every other form. */
const REDACTIONS: Redaction[] = [
  { pattern: /sk-ant-[\w-]+/i },
  { pattern: /bearer\s+[\w.~+/=-]+/i },
  ...DECLARED_PATTERNS.map((pattern) => ({ pattern })),
];

describe('property: a saved recording never holds a secret in an ordinary encoding', () => {
  it('for a random corpus run, secret, field and encoding: the save refuses, or the file holds no form of the ' +
    'secret', () => {
    const file = join(tempDir(), 'probe.yaml');
    fc.assert(
      fc.property(
        fc.nat(corpus.length - 1),
        fc.constantFrom(...SECRETS),
        fc.nat(100),
        fc.constantFrom(...Object.keys(ENCODINGS)),
        fc.constantFrom(...Object.keys(PLACEMENTS)),
        fc.constantFrom('', 'token: ', 'see the header ', 'Authorization: '),
        fc.constantFrom('', ' (end)', '\nnext line', '!'),
        fc.boolean(),
        (index, secret, pick, encoding, placement, before, after, redact) => {
          const trajectory = structuredClone(corpus[index]!);
          PLACEMENTS[placement]!(trajectory, `${before}${ENCODINGS[encoding]!(variant(secret, pick))}${after}`);
          let saved = true;
          try {
            saveTrajectory(file, trajectory, { secrets: DECLARED_PATTERNS, redactions: redact ? REDACTIONS : [] });
          } catch (error) {
            expect(error).toBeInstanceOf(SecretInTrajectoryError);
            const own = secret.value.replace(/^sk-ant-/, '');
            for (let i = 0; i + 4 <= own.length; i++)
              expect((error as Error).message).not.toContain(own.slice(i, i + 4));
            saved = false;
          }
          if (saved) expect(holds(readFileSync(file, 'utf8'), secret)).toBeUndefined();
        },
      ),
      { numRuns: 300 },
    );
  }, 120_000);
});
