import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  ScriptedTransport,
  SecretInTrajectoryError,
  defineTool,
  reply,
  runTrajectory,
  type AgentFactory,
} from '../../src/index.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();

const echo = defineTool({
  name: 'fetch_profile',
  description: 'Fetches a profile.',
  input: {
    type: 'object',
    properties: { user: { type: 'string' }, card: { type: 'object', properties: { number: { type: 'string' } } } },
    required: ['user'],
  },
  run: ({ user }) => `profile of ${user}; api token sk-ant-api03-SECRETSECRET`,
});
const agent: AgentFactory = (transport) =>
  new Agent({ name: 'profiles', model: 'claude-haiku-5-5', tools: [echo], transport });
const script = () =>
  new ScriptedTransport([
    reply.toolUse('fetch_profile', { user: 'ada', card: { number: '4111111111111111' } }),
    reply.text('Done.'),
  ]);

describe('secrets never reach a trajectory', () => {
  it('refuses to save a run whose conversation holds an sk-ant- key, naming where it was', async () => {
    const file = join(tempDir(), 'leak.yaml');
    const error = await runTrajectory({ file, agent, input: 'Fetch ada', mode: 'record', transport: script }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SecretInTrajectoryError);
    expect((error as Error).message).toMatch(
      /leak\.yaml:\d+:\d+: the recording holds an Anthropic API key \(sk-ant-…\)/,
    );
    expect((error as Error).message).not.toContain('SECRETSECRET');
    expect((error as Error).message).not.toContain('api03');
    expect(existsSync(file)).toBe(false);
  });

  it('leaves the previous recording intact when a new one is refused', async () => {
    const file = join(tempDir(), 'kept.yaml');
    writeFileSync(file, 'previous content\n');
    await runTrajectory({ file, agent, input: 'Fetch ada', mode: 'record', transport: script }).catch(() => undefined);
    expect(readFileSync(file, 'utf8')).toBe('previous content\n');
  });

  it('applies declared redactions (a pattern and a key path) at record time, and the same way at replay', async () => {
    const file = join(tempDir(), 'redacted.yaml');
    const redactions = [{ pattern: /sk-ant-[\w-]+/, placeholder: '[API KEY]' }, { path: 'card.number' }];
    await runTrajectory({ file, agent, input: 'Fetch ada', mode: 'record', transport: script, redactions });
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('sk-ant-');
    expect(text).not.toContain('4111111111111111');
    expect(text).toContain('[API KEY]');
    expect(text).toContain('number: "[REDACTED]"');
    // The live tool output still holds the key; redacting the live request the same way makes it match.
    const replayed = await runTrajectory({ file, agent, mode: 'replay', redactions });
    expect(replayed.result.text).toBe('Done.');
  });

  it('refuses a declared secret pattern too', async () => {
    const file = join(tempDir(), 'declared.yaml');
    const quiet = defineTool({
      name: 'fetch_profile',
      description: 'F.',
      input: { type: 'object', properties: { user: { type: 'string' } } },
      run: () => 'internal id ACME-PRIVATE-7',
    });
    const factory: AgentFactory = (transport) => new Agent({ name: 'p', model: 'm', tools: [quiet], transport });
    const error = await runTrajectory({
      file,
      agent: factory,
      input: 'x',
      mode: 'record',
      transport: () => new ScriptedTransport([reply.toolUse('fetch_profile', {}), reply.text('ok')]),
      secrets: [/ACME-PRIVATE-\d+/],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretInTrajectoryError);
    expect(existsSync(file)).toBe(false);
  });
});
