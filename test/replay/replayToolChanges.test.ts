import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  ReplayTransport,
  ScriptedTransport,
  TrajectoryDivergenceError,
  defineTool,
  loadTrajectory,
  reply,
  runTrajectory,
  serializeTrajectory,
  type AgentFactory,
  type MatchLevel,
  type ToolAnnotations,
} from '../../src/index.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();
const LEVELS: MatchLevel[] = ['exact', 'structure', 'shape'];

/** The tools as recorded, and each thing a test may change about them. */
interface Variant {
  untrusted: boolean;
  readAnnotations: ToolAnnotations | undefined;
  readDescription: string;
  idType: 'string' | 'number';
  archivePrivileged: boolean;
  archivePolicy: string;
  archiveCompensated: boolean;
  archiveCap: number | undefined;
  withRestore: boolean;
}

const recorded: Variant = {
  untrusted: true,
  readAnnotations: { readOnly: true },
  readDescription: 'Reads one email, by its id, from the inbox.',
  idType: 'string',
  archivePrivileged: false,
  archivePolicy: 'mail',
  archiveCompensated: true,
  archiveCap: 2000,
  withRestore: true,
};

function factory(changes: Partial<Variant> = {}): AgentFactory {
  const v = { ...recorded, ...changes };
  const readEmail = defineTool({
    name: 'read_email',
    description: v.readDescription,
    input: {
      type: 'object',
      properties: { id: v.idType === 'string' ? { type: 'string' } : { type: 'number' } },
      required: ['id'],
    },
    untrusted: v.untrusted,
    ...(v.readAnnotations === undefined ? {} : { annotations: v.readAnnotations }),
    run: () => 'Hello from the inbox.',
  });
  const restore = defineTool({
    name: 'restore_email',
    description: 'Restores an archived email.',
    input: { type: 'object', properties: { id: { type: 'string' } } },
    run: () => 'restored',
  });
  const archive = defineTool({
    name: 'archive_email',
    description: 'Archives an email.',
    input: { type: 'object', properties: { id: { type: 'string' } } },
    privileged: v.archivePrivileged,
    policy: v.archivePolicy,
    ...(v.archiveCompensated ? { compensatedBy: 'restore_email' } : {}),
    ...(v.archiveCap === undefined ? {} : { maxResultLength: v.archiveCap }),
    run: () => 'archived',
  });
  return (transport) =>
    new Agent({
      name: 'mail',
      model: 'claude-haiku-5-5',
      system: 'Read mail.',
      tools: v.withRestore ? [readEmail, archive, restore] : [readEmail, archive],
      authorizer: () => true,
      transport,
    });
}

const script = () => new ScriptedTransport([reply.toolUse('read_email', { id: 'm1' }), reply.text('It says hello.')]);

async function recording(): Promise<string> {
  const file = join(tempDir(), 'mail.yaml');
  await runTrajectory({ file, agent: factory(), input: 'Read m1.', mode: 'record', transport: script });
  return file;
}

async function divergence(file: string, changes: Partial<Variant>, match: MatchLevel) {
  const error = await runTrajectory({ file, agent: factory(changes), mode: 'replay', match }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TrajectoryDivergenceError);
  return error as TrajectoryDivergenceError;
}

describe('the header keeps what the model saw and the posture', () => {
  it('records description, input schema and posture per tool', async () => {
    const tools = loadTrajectory(await recording()).tools;
    expect(tools[0]).toMatchObject({
      name: 'read_email',
      untrusted: true,
      annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
      description: recorded.readDescription,
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    });
    expect(tools[1]).toMatchObject({
      name: 'archive_email',
      policy: 'mail',
      compensatedBy: 'restore_email',
      maxResultLength: 2000,
    });
    expect(tools[1]).not.toHaveProperty('annotations'); // it declared none
    expect(tools[2]).not.toHaveProperty('maxResultLength'); // no cap: the default
  });
});

describe('posture changes are reported by name, at the end of the replay, at every level', () => {
  const cases: [string, Partial<Variant>, string[]][] = [
    ['untrusted removed', { untrusted: false }, ["tool 'read_email' was untrusted when recorded and is trusted now"]],
    [
      'privileged added',
      { archivePrivileged: true },
      ["tool 'archive_email' was not privileged when recorded and is privileged now"],
    ],
    [
      'policy changed',
      { archivePolicy: 'inbox' },
      ["tool 'archive_email' was gated by policy 'mail' when recorded and is gated by policy 'inbox' now"],
    ],
    [
      'compensatedBy removed',
      { archiveCompensated: false },
      ["tool 'archive_email' was compensated by 'restore_email' when recorded and is not compensated by a tool now"],
    ],
    [
      'output cap changed',
      { archiveCap: 50 },
      [
        "tool 'archive_email' was capped at 2000 characters of output when recorded and is capped at 50 characters " +
          'of output now',
      ],
    ],
    [
      'an annotation changed',
      { readAnnotations: { readOnly: false, destructive: false } },
      [
        "tool 'read_email' was read-only when recorded and is not read-only now",
        "tool 'read_email' was idempotent when recorded and is not idempotent now",
      ],
    ],
    [
      'annotations removed',
      { readAnnotations: undefined },
      [
        "tool 'read_email' was annotated as read-only, not destructive, idempotent, open-world when recorded and " +
          "is not annotated (MCP's defaults apply) now",
      ],
    ],
  ];

  for (const match of LEVELS) {
    it.each(cases)(`${match}: %s`, async (_name, changes, messages) => {
      const file = await recording();
      const error = await divergence(file, changes, match);
      expect(error.kind).toBe('tool_changed');
      for (const message of messages) expect(error.message).toContain(message);
      expect(error.message).not.toMatch(/sha256/);
      expect(Object.keys(error.actual as object)).toHaveLength(messages.length);
    });
  }

  it('keeps the changes, once each, and lets the run finish before assertDone reports them', async () => {
    const file = await recording();
    const transport = new ReplayTransport(loadTrajectory(file), { file });
    const agent = factory({ untrusted: false, archivePolicy: 'inbox' })(transport);
    const result = await agent.run('Read m1.');
    expect(result.text).toBe('It says hello.'); // two turns, compared once
    expect(
      transport.toolChanges.map(({ tool, field, part, expected, actual }) => [tool, field, part, expected, actual]),
    ).toEqual([
      ['read_email', 'untrusted', 'posture', true, undefined],
      ['archive_email', 'policy', 'posture', 'mail', 'inbox'],
    ]);
    expect(() => transport.assertDone()).toThrow(TrajectoryDivergenceError);
  });

  it("leaves a file that states what must hold (a fuzz finding's `expect`) to that, keeping the changes", async () => {
    const file = await recording();
    const trajectory = loadTrajectory(file);
    trajectory.expect = { blocked: [] };
    writeFileSync(file, serializeTrajectory(trajectory));
    const transport = new ReplayTransport(loadTrajectory(file), { file });
    await factory({ archivePrivileged: true })(transport).run('Read m1.');
    expect(transport.toolChanges.map((change) => change.field)).toEqual(['privileged']);
    expect(() => transport.assertDone()).not.toThrow();
  });

  it('passes when nothing changed', async () => {
    const file = await recording();
    for (const match of LEVELS)
      await expect(runTrajectory({ file, agent: factory(), mode: 'replay', match })).resolves.toMatchObject({
        mode: 'replay',
      });
  });
});

describe('what the model saw is reported by name, never only as a digest', () => {
  it('exact: a changed description names the tool and shows the changed words', async () => {
    const file = await recording();
    const error = await divergence(file, { readDescription: 'Reads one email, by its id, from the archive.' }, 'exact');
    expect(error.kind).toBe('request');
    expect(error.message).toContain("tool 'read_email' has another description");
    expect(error.message).toContain('inbox');
    expect(error.message).toContain('archive');
    expect(error.message).not.toMatch(/sha256/);
  });

  it('exact: a changed schema names the tool and the JSON path', async () => {
    const file = await recording();
    const error = await divergence(file, { idType: 'number' }, 'exact');
    expect(error.message).toContain(
      `tool 'read_email' has another input schema at properties.id.type: "string" when recorded, "number" now`,
    );
  });

  it('structure and shape do not compare what the model was shown', async () => {
    const file = await recording();
    for (const match of ['structure', 'shape'] as const)
      await expect(
        runTrajectory({ file, agent: factory({ readDescription: 'Other.' }), mode: 'replay', match }),
      ).resolves.toMatchObject({ mode: 'replay' });
  });

  it('at every level, a schema change that refuses a recorded call is a decision divergence', async () => {
    const file = await recording();
    for (const match of LEVELS) {
      const error = await runTrajectory({ file, agent: factory({ idType: 'number' }), mode: 'replay', match }).catch(
        (e: unknown) => e,
      );
      // exact stops sooner, at the schema the request shows the model.
      if (match === 'exact') {
        expect(error, match).toMatchObject({ kind: 'request' });
        continue;
      }
      expect(error, match).toMatchObject({ kind: 'decision' });
      expect((error as Error).message, match).toMatch(
        /read_email \(turn 1\) ran when recorded; today's code would refuse it as invalid \(invalid_type at 'id'\)/,
      );
    }
  });

  it.each(LEVELS)('%s: a removed tool is named', async (match) => {
    const file = await recording();
    const error = await divergence(file, { withRestore: false, archiveCompensated: false }, match);
    expect(error.kind).toBe('request');
    expect(error.message).toContain("tool 'restore_email' was offered when recorded and is not now");
  });

  it('a request divergence also names a posture change, as its likely cause', async () => {
    const file = await recording();
    const error = await divergence(file, { untrusted: false, idType: 'number' }, 'exact');
    expect(error.kind).toBe('request');
    expect(error.message).toContain("tool 'read_email' was untrusted when recorded and is trusted now");
  });
});

describe('a recording made before the header kept descriptions and schemas', () => {
  async function legacyRecording(): Promise<string> {
    const file = await recording();
    const trajectory = loadTrajectory(file);
    trajectory.tools = trajectory.tools.map(({ name, untrusted, privileged, policy, digest }) => ({
      name,
      digest,
      ...(untrusted ? { untrusted } : {}),
      ...(privileged ? { privileged } : {}),
      ...(policy === undefined ? {} : { policy }),
    }));
    writeFileSync(file, serializeTrajectory(trajectory));
    return file;
  }

  it('still replays, and compares the flags it has', async () => {
    const file = await legacyRecording();
    await expect(runTrajectory({ file, agent: factory(), mode: 'replay' })).resolves.toMatchObject({ mode: 'replay' });
    const error = await divergence(file, { untrusted: false }, 'shape');
    expect(error.message).toContain("tool 'read_email' was untrusted when recorded and is trusted now");
  });

  it('names the tool whose definition changed, and says to re-record to see how', async () => {
    const file = await legacyRecording();
    const error = await divergence(file, { readDescription: 'Other.' }, 'exact');
    expect(error.message).toContain("tool 'read_email' is shown to the model differently");
    expect(error.message).toContain('re-record it to see what changed');
  });
});
