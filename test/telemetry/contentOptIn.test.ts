import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  Agent,
  AgentConfigurationError,
  ScriptedTransport,
  UsageError,
  defineTool,
  reply,
  type TelemetryOptions,
} from '../../src/index.js';
import { CONTENT_ENV, recordsContent } from '../../src/telemetry/telemetryOptions.js';
import { caught } from '../support/caught.js';
import { useSpanRecorder } from '../support/spanRecorder.js';

const { spans, reset } = useSpanRecorder();
afterEach(() => vi.unstubAllEnvs());

/** A conversation made of the texts given: the user's input, the tool's argument and result, the answer. */
async function converse(
  texts: { input: string; argument: string; result: string; answer: string },
  agentTelemetry?: TelemetryOptions,
  runTelemetry?: TelemetryOptions,
): Promise<string[]> {
  reset();
  const note = defineTool({
    name: 'note',
    description: 'Keeps a note.',
    input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    run: () => texts.result,
  });
  const agent = new Agent({
    name: 'scribe',
    model: 'claude-haiku-5-5',
    system: 'You keep notes.',
    tools: [note],
    transport: new ScriptedTransport([reply.toolUse('note', { text: texts.argument }), reply.text(texts.answer)]),
    ...(agentTelemetry === undefined ? {} : { telemetry: agentTelemetry }),
  });
  await agent.run(texts.input, runTelemetry === undefined ? {} : { telemetry: runTelemetry });
  return spans().flatMap((span) => Object.values(span.attributes).map((value) => JSON.stringify(value)));
}

const distinct = fc.stringMatching(/^[A-Za-z0-9 .,!?]{10,40}$/).map((text) => `txt-${text}`);
const conversation = fc.record({ input: distinct, argument: distinct, result: distinct, answer: distinct });
const holds = (values: string[], text: string) =>
  values.some((value) => value.includes(JSON.stringify(text).slice(1, -1)));

describe('message content on spans', () => {
  it('is never recorded by default, and is all recorded on opt-in, for any conversation', async () => {
    vi.stubEnv(CONTENT_ENV, '');
    await fc.assert(
      fc.asyncProperty(conversation, async (texts) => {
        const quiet = await converse(texts);
        expect(quiet.length).toBeGreaterThan(20);
        for (const text of Object.values(texts)) expect(holds(quiet, text)).toBe(false);
        const told = await converse(texts, { recordContent: true });
        for (const text of [...Object.values(texts), 'You keep notes.']) expect(holds(told, text)).toBe(true);
      }),
      { numRuns: 20 },
    );
  });

  it("is decided once: the run's option, else the agent's, else the environment variable, else off", async () => {
    const texts = { input: 'txt-input', argument: 'txt-argument', result: 'txt-result', answer: 'txt-answer' };
    vi.stubEnv(CONTENT_ENV, 'TRUE');
    expect(holds(await converse(texts), 'txt-result')).toBe(true);
    expect(holds(await converse(texts, { recordContent: false }), 'txt-result')).toBe(false);
    expect(holds(await converse(texts, { recordContent: false }, { recordContent: true }), 'txt-result')).toBe(true);
    vi.stubEnv(CONTENT_ENV, 'false');
    expect(holds(await converse(texts), 'txt-result')).toBe(false);
    expect(holds(await converse(texts, {}, { recordContent: true }), 'txt-result')).toBe(true);
    expect(recordsContent(undefined, undefined, {})).toBe(false);
    expect(recordsContent(undefined, undefined, { [CONTENT_ENV]: ' True ' })).toBe(true);
    expect(recordsContent(undefined, undefined, { [CONTENT_ENV]: '1' })).toBe(false);
  });

  it('a telemetry option that is not { recordContent?: boolean } is refused, saying what it takes', async () => {
    const base = { name: 'scribe', model: 'claude-haiku-5-5', transport: new ScriptedTransport([]) };
    const agentError = caught(
      () => new Agent({ ...base, telemetry: { recordContent: 'yes' } as never }),
      AgentConfigurationError,
    );
    expect(agentError.option).toBe('telemetry');
    expect(agentError.message).toBe(
      "Agent 'scribe': 'telemetry.recordContent' must be true or false, but it was the string \"yes\".",
    );
    const runError = await new Agent(base)
      .run('Hi.', { telemetry: { content: true } as never })
      .catch((e: unknown) => e);
    expect(runError).toBeInstanceOf(UsageError);
    expect(runError).toMatchObject({ code: 'invalid_telemetry_option' });
    expect((runError as Error).message).toBe(
      "'telemetry' has no option 'content'; the one it takes is 'recordContent' (a boolean).",
    );
  });
});
