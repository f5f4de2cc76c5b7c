import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  Agent,
  AnthropicTransport,
  ConfigError,
  ScriptedTransport,
  UsageError,
  loadProject,
  loadTrajectory,
  reply,
  runTrajectory,
  type Transport,
} from '../../src/index.js';
import { describeValue } from '../../src/json/describeValue.js';
import { messageEnd, messageStart, messagesEndpoint, sseResponse, textBlock } from '../support/anthropicApi.js';
import { useMockServer } from '../support/mockServer.js';
import { useTempDir } from '../support/tempDir.js';

const server = useMockServer();
const tempDir = useTempDir();
afterEach(() => vi.unstubAllEnvs());

const agent = (transport: Transport) => new Agent({ name: 'desk', model: 'claude-sonnet-5-5', transport });
const recordWith = (transport: unknown, file = join(tempDir(), 'run.yaml')) =>
  runTrajectory({
    file,
    config: false,
    agent,
    input: 'Hello.',
    mode: 'record',
    transport: transport as Transport,
    report: false,
  });

const EXPECTED =
  'must be a transport (new AnthropicTransport()) or a function that returns one (() => new AnthropicTransport())';

describe("runTrajectory's live transport: a transport or a function that returns one", () => {
  it('records with the transport given as it is: runTrajectory({ transport: new AnthropicTransport() })', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-test-not-a-real-key');
    const endpoint = messagesEndpoint([
      () => sseResponse([messageStart({ id: 'msg_given' }), ...textBlock(0, ['Hi.']), ...messageEnd('end_turn', 2)]),
    ]);
    server.use(endpoint.handler);
    const file = join(tempDir(), 'given.yaml');
    const run = await recordWith(new AnthropicTransport(), file);
    expect(run.result.text).toBe('Hi.');
    expect(endpoint.calls()).toBe(1);
    expect(loadTrajectory(file).turns[0]!.response.id).toBe('msg_given');
  });

  it('uses one transport for every run it is given to; a function is called for each run', async () => {
    const shared = new ScriptedTransport([reply.text('First.'), reply.text('Second.')]);
    expect((await recordWith(shared)).result.text).toBe('First.');
    expect((await recordWith(shared)).result.text).toBe('Second.');
    const passthrough = await runTrajectory({
      file: join(tempDir(), 'none.yaml'),
      config: false,
      agent,
      input: 'Hello.',
      mode: 'passthrough',
      transport: () => new ScriptedTransport([reply.text('Fresh.')]),
    });
    expect(passthrough.result.text).toBe('Fresh.');
    expect((await recordWith(() => new ScriptedTransport([reply.text('Fresh again.')]))).result.text).toBe(
      'Fresh again.',
    );
  });

  it("takes the config's transport in either form", async () => {
    const root = tempDir();
    const project = (transport: unknown) => ({ root, config: { agents: {}, transport: transport as Transport } });
    const run = (transport: unknown) =>
      runTrajectory({ file: 'a.yaml', project: project(transport), agent, input: 'Hi.', mode: 'passthrough' });
    expect((await run(new ScriptedTransport([reply.text('Instance.')]))).result.text).toBe('Instance.');
    expect((await run(() => new ScriptedTransport([reply.text('Made.')]))).result.text).toBe('Made.');
  });

  it('refuses anything else before a run, saying which forms it takes and what arrived (property)', async () => {
    const neither = fc
      .anything({ withBoxedValues: true, withMap: true, withSet: true })
      .filter((value) => value !== undefined && typeof (value as { send?: unknown } | null)?.send !== 'function');
    await fc.assert(
      fc.asyncProperty(neither, async (value) => {
        const error = await recordWith(value).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(UsageError);
        expect(error).toMatchObject({ code: 'invalid_transport' });
        const arrived = describeValue(value);
        const which = typeof value === 'object' && value !== null ? ', which has no send(request) method' : '';
        expect((error as Error).message).toBe(`The 'transport' option ${EXPECTED}, but it was ${arrived}${which}.`);
      }),
      { numRuns: 60 },
    );
  });

  it('refuses the class itself, and a function that returns no transport, when it is called', async () => {
    const send = vi.fn();
    await expect(recordWith(AnthropicTransport)).rejects.toThrow(
      new UsageError(
        'invalid_transport',
        `The 'transport' option ${EXPECTED}, but it was the class AnthropicTransport itself: ` +
          'pass new AnthropicTransport() or a function that makes one.',
      ),
    );
    await expect(recordWith(() => ({ sned: send }))).rejects.toThrow(
      "The 'transport' option is a function that returned the object {}, not a transport: " +
        'it must return one (not a promise of one), such as new AnthropicTransport().',
    );
    const error = await recordWith(async () => new ScriptedTransport([])).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_transport' });
    expect((error as Error).message).toContain('is a function that returned a promise, not a transport');
  });

  it('refuses a config whose transport is neither, when the config is loaded', async () => {
    const dir = join(tempDir(), 'project');
    mkdirSync(dir);
    writeFileSync(join(dir, 'package.json'), '{}\n');
    writeFileSync(join(dir, 'legate.config.mjs'), `export default { agents: {}, transport: 'anthropic' };\n`);
    const error = await loadProject({ cwd: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({
      code: 'invalid_config',
      message: `${join(dir, 'legate.config.mjs')}: transport ${EXPECTED}, but it was the string "anthropic".`,
    });
  });
});
