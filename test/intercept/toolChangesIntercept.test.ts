import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { interceptAnthropic, type InterceptOptions } from '../../src/intercept/index.js';
import { TrajectoryDivergenceError } from '../../src/replay/divergenceError.js';
import { useTempDir } from '../support/tempDir.js';
import { counter, counterTool, setupFor, weatherTool } from './capturedConversations.js';
import { createLoop } from './toolLoops.js';
import { capturedResponse, startUpstream } from './upstream.js';

const tempDir = useTempDir();

/** The tools the recording offered: the counter conversation's own tool, then another. */
const recordedTools = [counterTool, weatherTool];

const lookupTool: Anthropic.Tool = {
  name: 'lookup',
  description: 'Looks a word up.',
  input_schema: { type: 'object', properties: { word: { type: 'string' } } },
};

/** Records the counter conversation (a raw loop over client.messages.create) offering `tools`. */
async function record(tools: Anthropic.Tool[], options: Options): Promise<{ file: string; baseURL: string }> {
  const upstream = await startUpstream(counter.captures.map(capturedResponse));
  const file = join(tempDir(), 'tools.yaml');
  try {
    const interception = await interceptAnthropic({ file, mode: 'record', baseURL: upstream.url, ...options });
    try {
      await createLoop(setupFor(counter, upstream.url, { tools }));
    } finally {
      await interception.close();
    }
    return { file, baseURL: upstream.url };
  } finally {
    await upstream.close();
  }
}

type Options = Pick<InterceptOptions, 'config' | 'match' | 'redactions'>;

/**
 * Records offering `recordedTools`, then replays offering `tools`: returns what close() threw, having checked that
 * the client was told the same (the 400's error message).
 */
async function replayWith(tools: Anthropic.Tool[], options: Partial<Options> = {}, recorded = recordedTools) {
  const settings: Options = { config: false, ...options };
  const { file, baseURL } = await record(recorded, settings);
  const interception = await interceptAnthropic({ file, mode: 'replay', baseURL, ...settings });
  const told = await createLoop(setupFor(counter, baseURL, { tools })).then(
    () => undefined,
    (error: unknown) => error,
  );
  const thrown = await interception.close().then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(told).toBeInstanceOf(Anthropic.BadRequestError);
  const body = (told as InstanceType<typeof Anthropic.BadRequestError>).error as { error: { message: string } };
  expect(thrown).toBeInstanceOf(TrajectoryDivergenceError);
  const failure = thrown as TrajectoryDivergenceError;
  expect(failure).toMatchObject({ kind: 'request', turn: 1 });
  expect(failure.path?.startsWith('tools')).toBe(true);
  // The client is told what close() throws.
  expect(body.error.message).toBe(failure.message);
  return failure;
}

/** The divergence docs/intercept.md shows for tools offered differently, without its indent. */
function documented(): string {
  const doc = readFileSync('docs/intercept.md', 'utf8');
  const block = /\n( *)```text\n((?:.*\n)*?) *```\n/.exec(doc.slice(doc.indexOf('**Tools are compared by meaning**')))!;
  return block[2]!.replace(new RegExp(`^${block[1]}`, 'gm'), '');
}

describe('an intercept replay whose tools changed', () => {
  it('names a tool whose description changed, with a window around the change', async () => {
    const failure = await replayWith([{ ...counterTool, description: 'A tool that counts' }, weatherTool]);
    expect(failure.message).toContain('offers the tools differently from the recording');
    expect(failure.message).toContain(
      `tool 'test_tool' has another description: "A test tool" when recorded, "A tool that counts" now`,
    );
    expect(failure.message).not.toContain('sha256:');
    expect(failure.message).not.toContain('get_weather');
  });

  it('names a tool whose input schema changed, with the path inside the schema', async () => {
    const schema = { ...counterTool.input_schema, properties: { count: { type: 'integer' } } };
    const failure = await replayWith([{ ...counterTool, input_schema: schema }, weatherTool]);
    expect(failure.message).toContain(
      `tool 'test_tool' has another input schema at properties.count.type: "number" when recorded, "integer" now`,
    );
    expect(failure.message).not.toContain('sha256:');
  });

  it('names a tool added', async () => {
    const failure = await replayWith([...recordedTools, lookupTool]);
    expect(failure.message).toContain(`tool 'lookup' is offered now and was not when recorded`);
  });

  it('names a tool removed', async () => {
    const failure = await replayWith([counterTool]);
    expect(failure.message).toContain(`tool 'get_weather' was offered when recorded and is not now`);
  });

  it('names a tool offered in another place', async () => {
    const failure = await replayWith([weatherTool, counterTool]);
    expect(failure.message).toContain(
      `tool 'test_tool' is offered in another place: in the order test_tool, get_weather when recorded, ` +
        'get_weather, test_tool now',
    );
  });

  it('says a tool removed and another changed each on its own line, as docs/intercept.md shows', async () => {
    const failure = await replayWith([{ ...counterTool, description: 'A tool that counts' }]);
    expect(failure.message).toContain(`\n  - tool 'get_weather' was offered when recorded and is not now`);
    expect(failure.message).toContain(`\n  - tool 'test_tool' has another description:`);
    const shown = documented().replace('tests/agent.yaml', failure.file);
    expect(failure.message.slice(0, shown.length)).toBe(shown);
  });

  it('at the structure level, which compares tool names only, names a tool added', async () => {
    const failure = await replayWith([...recordedTools, lookupTool], { match: 'structure' });
    expect(failure.message).toContain(`tool 'lookup' is offered now and was not when recorded`);
  });

  it('shows a changed description as redacted, as the file holds it', async () => {
    const redactions = [{ pattern: /ACCT-\d+/ }];
    const described = (description: string) => [{ ...counterTool, description }];
    const failure = await replayWith(
      described('Counts for account ACCT-99812 now'),
      { redactions },
      described('Counts for account ACCT-99812'),
    );
    expect(failure.message).toContain(`tool 'test_tool' has another description:`);
    expect(failure.message).not.toContain('ACCT-99812');
  });
});
