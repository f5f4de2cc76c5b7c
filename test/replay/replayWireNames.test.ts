import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  ScriptedTransport,
  TrajectoryDivergenceError,
  UsageError,
  auditTrajectory,
  defineTool,
  loadTrajectory,
  reply,
  runTrajectory,
  type AgentFactory,
} from '../../src/index.js';
import { useTempDir } from '../support/tempDir.js';

// A tool whose declared argument names the Messages API refuses (Twilio's `DateSent<`), shown to the model under
// safe names: its trajectory records the names the model saw (the schema, the calls) and, beside the schema, the
// names the tool received them under; a replay compares those too, and the audit reads the names the model saw.

const tempDir = useTempDir();

function factory(tagsName = 'tags[]', received: unknown[] = []): AgentFactory {
  const listMessages = defineTool({
    name: 'list_messages',
    description: 'Lists the messages sent between two dates.',
    input: {
      type: 'object',
      properties: {
        'DateSent<': { type: 'string', description: 'Sent on or before this date.' },
        [tagsName]: { type: 'array', items: { type: 'string' } },
      },
      required: ['DateSent<'],
    },
    renameUnsafeProperties: true,
    run: (args) => {
      received.push(args);
      return '[]';
    },
  });
  return (transport) =>
    new Agent({ name: 'texts', model: 'claude-haiku-5-5', tools: [listMessages], transport, authorizer: () => true });
}

const input = { DateSent_lt: '2008-01-02', tags: ['urgent'] };
const script = () => new ScriptedTransport([reply.toolUse('list_messages', input), reply.text('None.')]);

async function recording(): Promise<string> {
  const file = join(tempDir(), 'texts.yaml');
  await runTrajectory({ file, agent: factory(), input: 'Any messages?', mode: 'record', transport: script });
  return file;
}

describe('a trajectory of a tool shown under safe names', () => {
  it('records what the model saw, and beside it the names the tool received', async () => {
    const file = await recording();
    const trajectory = loadTrajectory(file);
    expect(trajectory.tools[0]).toMatchObject({
      name: 'list_messages',
      inputSchema: { properties: { DateSent_lt: {}, tags: {} }, required: ['DateSent_lt'] },
      wireNames: { DateSent_lt: 'DateSent<', tags: 'tags[]' },
    });
    const call = trajectory.turns[0]!.response.content.find((block) => 'toolUse' in block);
    expect(call).toEqual({ toolUse: { id: expect.any(String), name: 'list_messages', input } });
    expect(readFileSync(file, 'utf8')).toContain('    wireNames: { DateSent_lt: DateSent<, tags: "tags[]" }\n');
  });

  it('replays, the tool again receiving its own names', async () => {
    const file = await recording();
    const received: unknown[] = [];
    const replayed = await runTrajectory({ file, agent: factory('tags[]', received), mode: 'replay' });
    expect(replayed.result.text).toBe('None.');
    expect(received).toEqual([{ 'DateSent<': '2008-01-02', 'tags[]': ['urgent'] }]);
  });

  it('fails the replay, in words, when a name shown stands for another name now', async () => {
    const file = await recording();
    // `tags()` is shown as `tags` too: the model sees the same tool, the tool receives another argument.
    const error = await runTrajectory({ file, agent: factory('tags()'), mode: 'replay' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrajectoryDivergenceError);
    expect((error as TrajectoryDivergenceError).kind).toBe('tool_changed');
    expect((error as TrajectoryDivergenceError).message).toContain(
      `tool 'list_messages' was given the model's "DateSent_lt" as "DateSent<", "tags" as "tags[]" when recorded ` +
        `and is given the model's "DateSent_lt" as "DateSent<", "tags" as "tags()" now`,
    );
  });

  it('is audited in the names the model saw', async () => {
    const trajectory = loadTrajectory(await recording());
    const audit = (sensitive: string) =>
      auditTrajectory(trajectory, { privileged: ['list_messages'], sensitive: { list_messages: [sensitive] } });
    expect(audit('DateSent_lt').clean).toBe(true);
    expect(() => audit('DateSent<')).toThrow(UsageError);
    expect(() => audit('DateSent<')).toThrow(/'DateSent_lt', 'tags'/);
  });
});
