// What the Claude Agent SDK's binary sends, held to the captures of test/fixtures/agent-sdk/captured/ and to one
// live run of the agent fixture (the binary is the subject): docs-notes/agent-sdk-traffic.md writes these facts up.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../support/agentSdk/agentSdkStandIn.js';
import {
  PARALLEL_PAYMENT_SCRIPT,
  PAYMENT_SCRIPT,
  TOOL_SEARCH_PAYMENT_SCRIPT,
} from '../support/agentSdk/paymentScript.js';
import { type AgentRun, runAgentFixture, STAND_IN_API_KEY } from '../support/agentSdk/runAgentFixture.js';

type Block = { type: string; text?: string; id?: string; tool_use_id?: string; cache_control?: unknown };
type Message = { role: string; content: Block[] };
type Body = { model: string; system: Block[]; messages: Message[]; tools: unknown[]; metadata: { user_id: string } };

const PROMPT = 'Read the invoice at https://acme.example/invoice/2291 and pay the amount it asks for.';
const captured = (name: string) =>
  JSON.parse(readFileSync(`test/fixtures/agent-sdk/captured/${name}.json`, 'utf8')) as AgentRun;
const loopOf = (run: AgentRun) => run.requests.filter((request) => request.answer.startsWith('turn '));
const bodiesOf = (run: AgentRun) => loopOf(run).map((request) => request.body as Body);

function withoutCacheControl(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheControl);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'cache_control')
      .map(([key, field]) => [key, withoutCacheControl(field)]),
  );
}

/** Where `cache_control` sits in a request, as paths. */
function cacheMarks(body: Body): string[] {
  const marks = body.system.flatMap((block, i) => ('cache_control' in block ? [`system[${i}]`] : []));
  body.messages.forEach((message, m) => {
    message.content.forEach((block, b) => {
      if ('cache_control' in block) marks.push(`messages[${m}].content[${b}]`);
    });
  });
  return marks;
}

/**
 * Each loop request is the one before it, unchanged but for cache_control, plus the response it got (whole) and one
 * user message with a tool_result per tool_use, in order; cache_control sits on system[1] and the last block only.
 */
function expectContinuations(run: AgentRun, script: ScriptedTurn[]): void {
  const bodies = bodiesOf(run);
  expect(bodies).toHaveLength(script.length);
  bodies.forEach((body, turn) => {
    const last = body.messages.length - 1;
    const lastBlock = (body.messages[last]?.content.length ?? 0) - 1;
    expect(cacheMarks(body)).toEqual(['system[1]', `messages[${last}].content[${lastBlock}]`]);
    if (turn === 0) return;
    const before = bodies[turn - 1]?.messages ?? [];
    const answered = script[turn - 1]?.content ?? [];
    expect(body.messages).toHaveLength(before.length + 2);
    expect(withoutCacheControl(body.messages.slice(0, before.length))).toEqual(withoutCacheControl(before));
    expect(body.messages[before.length]).toEqual({ role: 'assistant', content: answered });
    const results = body.messages[before.length + 1]?.content.filter((block) => block.type === 'tool_result');
    const calls = answered.filter((block) => block.type === 'tool_use').map((block) => (block as Block).id);
    expect(results?.map((block) => block.tool_use_id)).toEqual(calls);
  });
}

/** The first message: reminders, each a `<system-reminder>` text block, the environment first, the prompt last. */
function expectFirstMessage(run: AgentRun, prompt = PROMPT): void {
  const [first] = bodiesOf(run)[0]?.messages ?? [];
  const texts = first?.content.map((block) => block.text ?? '') ?? [];
  expect(texts.at(-1)).toBe(prompt);
  for (const text of texts.slice(0, -1)) expect(text).toMatch(/^<system-reminder>\n[\s\S]*\n<\/system-reminder>\n?$/);
  const environment = texts[0]?.split('\n').slice(0, 8);
  expect(environment).toEqual([
    '<system-reminder>',
    '# Environment',
    'You have been invoked in the following environment: ',
    ` - Primary working directory: ${run.cwd}`,
    expect.stringMatching(/^ - Is a git repository: (true|false)$/),
    ` - Platform: ${process.platform}`,
    expect.stringMatching(/^ - Shell: /),
    expect.stringMatching(/^ - OS Version: /),
  ]);
  expect(texts).toContainEqual(expect.stringMatching(/^<system-reminder>\nToday's date is \d{4}-\d\d-\d\d\.\n/));
}

function expectClientHeaders(run: AgentRun): void {
  for (const { headers, url, body } of run.requests.filter((request) => request.method === 'POST')) {
    expect(url).toBe('/v1/messages?beta=true');
    expect(headers['user-agent']).toBe('claude-cli/2.1.334 (external, sdk-ts, agent-sdk/0.3.334)');
    expect(headers).toMatchObject({ 'x-app': 'cli', 'x-api-key': STAND_IN_API_KEY, 'anthropic-version': '2023-06-01' });
    expect(headers.authorization).toBeUndefined();
    const user = JSON.parse((body as Body).metadata.user_id) as Record<string, string>;
    expect(Object.keys(user)).toEqual(['device_id', 'account_uuid', 'session_id']);
    expect(user.device_id).toMatch(/^[0-9a-f]{64}$/);
    expect(user.session_id).toBe(headers['x-claude-code-session-id']);
  }
}

describe('the captured traffic of the Claude Agent SDK', () => {
  it.each([
    ['default-folderA-run1', PAYMENT_SCRIPT],
    ['default-folderB-git', PAYMENT_SCRIPT],
    ['nonessential-off-toolsearch-off', PAYMENT_SCRIPT],
    ['pinned-ids', PAYMENT_SCRIPT],
    ['toolsearch-called', TOOL_SEARCH_PAYMENT_SCRIPT],
    ['parallel-tool-calls', PARALLEL_PAYMENT_SCRIPT],
  ])('%s: each loop request continues the last, the env reminder opens the first message', (name, script) => {
    const run = captured(name);
    expectContinuations(run, script);
    expectFirstMessage(run);
    expectClientHeaders(run);
  });

  it('notices a request that rewrites an earlier message', () => {
    const run = captured('default-folderA-run1');
    const body = bodiesOf(run)[2] as Body;
    (body.messages[1]?.content[1] as Block).text = 'Reading the invoice!';
    expect(() => expectContinuations(run, PAYMENT_SCRIPT)).toThrow();
  });

  it('titles the session in a request of its own: one user message, no tools, a JSON schema', () => {
    const title = captured('default-folderA-run1').requests.find((request) => request.answer === 'side');
    const body = title?.body as Body & { output_config: { format: { type: string } } };
    expect(body.tools).toEqual([]);
    expect(body.output_config.format.type).toBe('json_schema');
    expect(body.messages).toHaveLength(1);
    expect(body.messages[0]?.content).toHaveLength(1);
    expect(body.messages[0]?.content[0]?.text).toMatch(new RegExp(`^<session>\\n${PROMPT.replaceAll('.', '\\.')}\\n`));
  });

  it('sends no probe and no title without nonessential traffic', () => {
    const answers = captured('nonessential-off-toolsearch-off').requests.map((request) => request.answer);
    expect(answers).toEqual(['turn 0', 'turn 1', 'turn 2']);
    expect(captured('default-folderA-run1').requests.map((request) => request.answer)).toEqual([
      'hello',
      'side',
      'turn 0',
      'turn 1',
      'turn 2',
    ]);
  });

  it('on a 400 with x-should-retry: false, degrades and re-sends, then reports an error result and throws', () => {
    const run = captured('refused-400-should-retry-false');
    expect(loopOf(run)).toHaveLength(0);
    const refused = run.requests.filter((request) => request.answer === '400');
    expect(refused.map((request) => (request.body as Body).tools.length)).toEqual([0, 0, 12, 12, 12, 28, 28, 28]);
    expect(refused.every((request) => request.headers['x-stainless-retry-count'] === '0')).toBe(true);
    expect(run.stdout.map((line) => JSON.parse(line))).toEqual([
      {
        result: expect.objectContaining({
          subtype: 'success',
          is_error: true,
          result: expect.stringMatching(/^API Error: 400/),
        }),
      },
      { thrown: expect.objectContaining({ message: expect.stringMatching(/^Claude Code returned an error result/) }) },
    ]);
  });
});

describe('the agent fixture under the SDK, live', () => {
  it('runs fetch_page then send_payment once and sends the loop the captures show, ids pinned', async () => {
    const home = mkdtempSync(join(tmpdir(), 'agentsdk-home-'));
    const deviceId = `${'0'.repeat(63)}1`;
    writeFileSync(join(home, '.claude.json'), JSON.stringify({ userID: deviceId }));
    const sessionId = '11111111-2222-4333-8444-555555555555';
    const run = await runAgentFixture({
      script: PAYMENT_SCRIPT,
      home,
      env: { CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', AGENT_SESSION_ID: sessionId },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.effects.trim().split('\n')).toHaveLength(1);
    const result = run.stdout.map((line) => JSON.parse(line)).find((line) => 'result' in line);
    expect(result).toEqual({
      result: expect.objectContaining({
        subtype: 'success',
        num_turns: 3,
        result: 'Paid 120.00 EUR to ACME Supplies.',
      }),
    });
    expect(run.requests.map((request) => request.answer)).toEqual(['turn 0', 'turn 1', 'turn 2']);
    expectContinuations(run, PAYMENT_SCRIPT);
    expectFirstMessage(run);
    expectClientHeaders(run);
    const userId = `{"device_id":"${deviceId}","account_uuid":"","session_id":"${sessionId}"}`;
    expect(bodiesOf(run).map((body) => body.metadata.user_id)).toEqual([userId, userId, userId]);
  });
});
