import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createAnthropic } from '@ai-sdk/anthropic';
import { ChatAnthropic } from '@langchain/anthropic';
import { type AIMessage, HumanMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { interceptAnthropic, type InterceptOptions } from '../../src/intercept/index.js';
import { loadTrajectory } from '../../src/trajectory/trajectoryFile.js';
import { useTempDir } from '../support/tempDir.js';
import { API_KEY, counter } from './capturedConversations.js';
import { capturedResponse, startUpstream } from './upstream.js';

const tempDir = useTempDir();
afterEach(() => vi.unstubAllEnvs());

const run = (name: string, input: unknown) => `${name} called with ${JSON.stringify(input)}`;

/** LangChain.js as its users write a tool loop: bindTools, invoke, a ToolMessage per call, invoke again. */
async function langChainLoop(): Promise<{ text: string; calls: unknown[] }> {
  // No baseURL: LangChain.js reads ANTHROPIC_API_URL (before ANTHROPIC_BASE_URL).
  const model = new ChatAnthropic({ model: 'claude-opus-4-8', apiKey: API_KEY, maxRetries: 0 }).bindTools([
    { name: counter.tool.name, description: counter.tool.description!, schema: counter.tool.input_schema },
  ]);
  const messages: BaseMessage[] = [new HumanMessage(counter.prompt)];
  const calls: unknown[] = [];
  for (;;) {
    const reply = (await model.invoke(messages)) as AIMessage;
    messages.push(reply);
    if (!reply.tool_calls?.length) return { text: String(reply.text), calls };
    for (const call of reply.tool_calls) {
      calls.push({ name: call.name, input: call.args });
      messages.push(new ToolMessage({ tool_call_id: call.id!, content: run(call.name, call.args) }));
    }
  }
}

/** The AI SDK's generateText, its provider given no baseURL: it reads ANTHROPIC_BASE_URL, which ends in /v1. */
async function aiSdkLoop(): Promise<{ text: string; calls: unknown[] }> {
  const result = await generateText({
    model: createAnthropic({ apiKey: API_KEY })('claude-opus-4-8'),
    prompt: counter.prompt,
    maxRetries: 0,
    stopWhen: stepCountIs(5),
    tools: {
      [counter.tool.name]: tool({
        description: counter.tool.description!,
        inputSchema: jsonSchema(counter.tool.input_schema as Parameters<typeof jsonSchema>[0]),
        execute: async (input) => run(counter.tool.name, input),
      }),
    },
  });
  return { text: result.text, calls: result.steps.flatMap((step) => step.toolCalls.map((call) => call.input)) };
}

/** Records a loop against the captured conversation, then replays it with the upstream closed: both outcomes. */
async function recordThenReplay<T>(
  loop: () => Promise<T>,
  environment: (upstream: string) => Record<string, string>,
  options: Partial<InterceptOptions> = {},
) {
  const file = join(tempDir(), 'run.yaml');
  const upstream = await startUpstream(counter.captures.map(capturedResponse));
  for (const [name, value] of Object.entries(environment(upstream.url))) vi.stubEnv(name, value);
  const recording = await interceptAnthropic({ file, config: false, mode: 'record', ...options });
  const recorded = await loop().finally(() => recording.close());
  await upstream.close();
  expect(upstream.seen).toHaveLength(2);
  const replaying = await interceptAnthropic({ file, config: false, mode: 'replay', ...options });
  const replayed = await loop().finally(() => replaying.close());
  return { recorded, replayed, trajectory: loadTrajectory(file) };
}

describe("every client's conventions, in-process", () => {
  it('records LangChain.js with only ANTHROPIC_API_URL set, and names the SDK it nests as the client', async () => {
    const { recorded, replayed, trajectory } = await recordThenReplay(langChainLoop, (url) => ({
      ANTHROPIC_API_URL: url,
      ANTHROPIC_BASE_URL: '',
    }));
    expect(recorded.calls).toHaveLength(2);
    expect(replayed).toEqual(recorded);
    // LangChain.js 1.5 sends through its own nested @anthropic-ai/sdk, whose version the headers name.
    expect(trajectory.client).toMatchObject({ userAgent: expect.stringMatching(/^Anthropic\/JS /), sdk: /^js / });
    expect(trajectory.sdk).toBeUndefined();
  });

  it('records the AI SDK whose base URL (from ANTHROPIC_BASE_URL) ends in /v1', async () => {
    const fromEnv = await recordThenReplay(aiSdkLoop, (url) => ({ ANTHROPIC_BASE_URL: `${url}/v1` }));
    expect(fromEnv.recorded.calls).toHaveLength(2);
    expect(fromEnv.replayed).toEqual(fromEnv.recorded);
    expect(fromEnv.trajectory.client?.userAgent).toMatch(/^ai\/\S+ ai-sdk\//);
  });

  it("records requests with Claude Code's `?beta=true` query", async () => {
    // As Claude Code sends them: to the base URL it reads from the environment, with the query.
    const beta = async () => {
      const response = await fetch(`${process.env.ANTHROPIC_BASE_URL}/v1/messages?beta=true`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': API_KEY, 'x-app': 'cli' },
        body: JSON.stringify({
          model: 'claude-opus-4-8',
          max_tokens: 1024,
          tools: [counter.tool],
          messages: [{ role: 'user', content: counter.prompt }],
        }),
      });
      return response.json();
    };
    const file = join(tempDir(), 'beta.yaml');
    const upstream = await startUpstream(counter.captures.slice(0, 1).map(capturedResponse));
    vi.stubEnv('ANTHROPIC_BASE_URL', upstream.url);
    const recording = await interceptAnthropic({ file, config: false, mode: 'record' });
    const recorded = await beta().finally(() => recording.close());
    await upstream.close();
    expect(upstream.seen.map((request) => request.url)).toEqual(['/v1/messages?beta=true']);
    const replaying = await interceptAnthropic({ file, config: false, mode: 'replay' });
    expect(await beta().finally(() => replaying.close())).toEqual(recorded);
  });
});

describe('a recording that caught nothing', () => {
  it('names a Messages API base URL the interception does not cover', async () => {
    const recording = await interceptAnthropic({ file: join(tempDir(), 'x.yaml'), config: false, mode: 'record' });
    // Port 9 (discard) on the loopback: nothing listens, the request fails at once, after the interception saw it.
    await fetch('http://127.0.0.1:9/gateway/v1/messages', { method: 'POST', body: '{}' }).catch(() => {});
    const error = await recording.close().then(
      () => undefined,
      (thrown: Error) => thrown,
    );
    expect(error).toMatchObject({ code: 'nothing_to_record' });
    expect(error!.message).toContain('Messages API requests went to http://127.0.0.1:9/gateway/v1/messages');
    expect(error!.message).toContain(
      "give that base URL (the part before /v1/messages) as interceptAnthropic's baseURL",
    );
    expect(error!.message).not.toContain('A client takes `fetch` when it is made');
  });

  it('names a child process started while intercepting, and the proxy that records it', async () => {
    const recording = await interceptAnthropic({ file: join(tempDir(), 'x.yaml'), config: false, mode: 'record' });
    const child = spawn(process.execPath, ['-e', '']);
    await once(child, 'exit');
    await expect(recording.close()).rejects.toMatchObject({
      code: 'nothing_to_record',
      message: expect.stringMatching(
        new RegExp(`A child process was started while intercepting \\(${process.execPath}\\).*startRecordingProxy`),
      ),
    });
  });

  it('does not name a child process started while no interception was in force', async () => {
    const earlier = await interceptAnthropic({ file: join(tempDir(), 'x.yaml'), config: false, mode: 'record' });
    await earlier.close().catch(() => {});
    const child = spawn(process.execPath, ['-e', '']);
    await once(child, 'exit');
    const recording = await interceptAnthropic({ file: join(tempDir(), 'y.yaml'), config: false, mode: 'record' });
    const error = await recording.close().then(
      () => undefined,
      (thrown: Error) => thrown,
    );
    expect(error).toMatchObject({ code: 'nothing_to_record' });
    expect(error!.message).not.toContain('A child process was started');
  });

  it('says the one cause it cannot see, a client made early, when it saw nothing else', async () => {
    const recording = await interceptAnthropic({ file: join(tempDir(), 'x.yaml'), config: false, mode: 'record' });
    await expect(recording.close()).rejects.toMatchObject({
      code: 'nothing_to_record',
      message: expect.stringContaining('A client takes `fetch` when it is made'),
    });
  });
});
