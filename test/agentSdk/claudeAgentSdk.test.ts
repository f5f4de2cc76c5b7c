// Issue 34: a real Claude Agent SDK agent under legate. The fixture agent (test/fixtures/agent-sdk/agent.mjs: query()
// with an in-process MCP server of two tools, fetch_page reading outside content and send_payment writing a file)
// runs its loop in the SDK's own binary, so legate reaches it only over HTTP: through the recording proxy. The binary
// is the subject, so it runs for real, four times: record, replay, re-record, replay with a changed tool.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.js';
import { auditTrajectory, startRecordingProxy, type RecordingProxy } from '../../src/index.js';
import { conversationsOf } from '../../src/trajectory/conversationsOf.js';
import { loadTrajectory } from '../../src/trajectory/trajectoryFile.js';
import type { Trajectory } from '../../src/trajectory/types.js';
import { startAgentSdkStandIn, type AgentSdkStandIn } from '../support/agentSdk/agentSdkStandIn.js';
import { PAYMENT_SCRIPT } from '../support/agentSdk/paymentScript.js';
import { type AgentRun, runAgentFixture, STAND_IN_API_KEY } from '../support/agentSdk/runAgentFixture.js';
import { captureIo } from '../support/captureIo.js';

/** One run of the binary takes 3 s idle and up to 18 s on a loaded 2-core machine: a hang guard, not a speed check. */
const AGENT_RUN_TIMEOUT = 240_000;
const FETCH = 'mcp__billing__fetch_page';
const PAY = 'mcp__billing__send_payment';
const PAID = '{"iban":"DE44500105175407324931","amount":120,"currency":"EUR"}\n';

let work: string;
let file: string;
let recorded: { run: AgentRun; answers: string[]; bytes: string; trajectory: Trajectory };

/** A folder of its own under this file's work folder. */
function folder(name: string): string {
  const path = join(work, name);
  mkdirSync(path, { recursive: true });
  return path;
}

/**
 * The agent run once through a recording proxy of `file`: in `record`, sent on to a stand-in playing the payment
 * script (with a key, as a developer records); in `replay`, with no stand-in and no key, as CI replays. Returns the
 * run, the closed proxy, what close() threw, and what the stand-in answered.
 */
async function throughProxy(
  mode: 'record' | 'replay',
  { env = {}, name = mode }: { env?: Record<string, string>; name?: string } = {},
) {
  const standIn: AgentSdkStandIn | undefined =
    mode === 'record' ? await startAgentSdkStandIn({ script: PAYMENT_SCRIPT }) : undefined;
  let proxy: RecordingProxy | undefined;
  try {
    proxy = await startRecordingProxy({ file, mode, config: false, ...(standIn ? { upstream: standIn.url } : {}) });
    const api = mode === 'record' ? { ...proxy.env, ANTHROPIC_API_KEY: STAND_IN_API_KEY } : proxy.env;
    const run = await runAgentFixture({
      api,
      cwd: folder(`${name}-cwd`),
      home: folder(`${name}-home`),
      // Tool search off: the MCP tools are sent in `tools`, descriptions and all (else only named in a reminder).
      env: { ENABLE_TOOL_SEARCH: 'false', ...env },
    });
    const closed = await proxy.close().then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    return { run, proxy, closed, answers: standIn?.requests.map((request) => request.answer) ?? [] };
  } finally {
    await standIn?.close();
  }
}

const linesOf = (run: AgentRun) => run.stdout.map((line) => JSON.parse(line) as Record<string, unknown>);
const callsOf = (conversation: Trajectory) =>
  conversation.turns.map((turn) =>
    turn.response.content.flatMap((block) => ('toolUse' in block ? [block.toolUse.name] : [])),
  );

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'legate-agentsdk-'));
  file = join(work, 'trajectories', 'pay-invoice.yaml');
  const { run, closed, answers } = await throughProxy('record');
  if (closed !== undefined) throw closed;
  recorded = { run, answers, bytes: readFileSync(file, 'utf8'), trajectory: loadTrajectory(file) };
}, AGENT_RUN_TIMEOUT);

afterAll(() => {
  vi.unstubAllEnvs();
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe('a Claude Agent SDK agent, recorded and replayed through the recording proxy', () => {
  it('records the title request and the loop as conversations of one file, with nothing of the machine in it', () => {
    const { run, answers, bytes, trajectory } = recorded;
    expect(run.exitCode, run.stderr).toBe(0);
    expect(linesOf(run).at(-1)).toEqual({
      result: expect.objectContaining({
        subtype: 'success',
        num_turns: 3,
        result: 'Paid 120.00 EUR to ACME Supplies.',
      }),
    });
    expect(run.effects).toBe(PAID);
    // The probe is answered by the proxy; the title request and the three loop turns were sent on.
    expect(answers).toEqual(['side', 'turn 0', 'turn 1', 'turn 2']);
    expect(trajectory).toMatchObject({
      boundary: 'http',
      client: { userAgent: 'claude-cli/2.1.334 (external, sdk-ts, agent-sdk/0.3.334)', app: 'cli' },
      normalised: ['cacheControl', 'userId', 'claudeCodeEnvironment'],
    });
    const [title, loop, ...others] = conversationsOf(trajectory);
    expect(others).toEqual([]);
    expect({ model: title?.model, tools: title?.tools, calls: callsOf(title!) }).toEqual({
      model: 'claude-haiku-5-5',
      tools: [],
      calls: [[]],
    });
    expect(loop?.model).toBe('claude-sonnet-4-5');
    expect(callsOf(loop!)).toEqual([[FETCH], [PAY], []]);
    const tools = Object.fromEntries((loop?.tools ?? []).map((tool) => [tool.name, tool.description]));
    expect(tools).toMatchObject({
      [FETCH]: 'Fetch a web page and return its text.',
      [PAY]: 'Send a payment by bank transfer.',
    });
    // Where and when it ran, and who ran it, are not in the file: only the recording's own time is.
    expect(bytes).toContain('Primary working directory: [working directory]');
    expect(bytes).toContain("Today's date is [date].");
    for (const machine of [run.cwd, run.home, work]) expect(bytes).not.toContain(machine);
    expect(bytes.match(/\d{4}-\d\d-\d\d/g)).toEqual([trajectory.recordedAt.slice(0, 10)]);
    expect(bytes).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/); // the session id
    expect(bytes).not.toMatch(/[0-9a-f]{64}/); // the device id
    expect(bytes).not.toContain(STAND_IN_API_KEY);
  });

  it(
    'replays it with the stand-in gone, from another folder and HOME: the same result and the same payment',
    async () => {
      vi.stubEnv('ANTHROPIC_API_KEY', ''); // as in CI: the proxy gives the agent a placeholder
      const { run, proxy, closed } = await throughProxy('replay');
      expect(run.cwd).not.toBe(recorded.run.cwd);
      expect(run.exitCode, run.stderr).toBe(0);
      expect({ closed, failure: proxy.failure }).toEqual({ closed: undefined, failure: undefined });
      // The MCP tools are not faked: they ran in the agent's process again, one payment written, as when recorded.
      expect(linesOf(run)).toEqual(linesOf(recorded.run));
      expect(run.effects).toBe(PAID);
    },
    AGENT_RUN_TIMEOUT,
  );

  it(
    're-records it to the same bytes',
    async () => {
      const { run, closed, answers } = await throughProxy('record', { name: 'again' });
      expect({ exit: run.exitCode, closed, answers }).toEqual({
        exit: 0,
        closed: undefined,
        answers: recorded.answers,
      });
      expect(readFileSync(file, 'utf8')).toBe(recorded.bytes);
    },
    AGENT_RUN_TIMEOUT,
  );

  it(
    "refuses a replay whose tool has another description, naming the tool; query() throws with legate's words",
    async () => {
      vi.stubEnv('ANTHROPIC_API_KEY', '');
      const changed = 'Send a payment by bank transfer, without asking.';
      const { run, proxy, closed } = await throughProxy('replay', {
        name: 'changed',
        env: { AGENT_PAYMENT_DESCRIPTION: changed },
      });
      expect(proxy.failure?.message).toContain(`tool '${PAY}' has another description`);
      expect(proxy.failure?.message).toContain('(conversation 2 of 2)');
      expect(closed).toBe(proxy.failure);
      // The binary gets a 400 it does not retry as such, re-sends degraded requests (refused alike), then gives up.
      expect(run.exitCode).toBe(2);
      const thrown = linesOf(run).find((line) => 'thrown' in line)?.thrown as { message: string } | undefined;
      expect(thrown?.message).toMatch(/^Claude Code returned an error result: API Error: 400 /);
      expect(thrown?.message).toContain(`tool '${PAY}' has another description`);
      expect(run.effects).toBe(''); // refused before the model's first answer: no tool ran
    },
    AGENT_RUN_TIMEOUT,
  );

  it('audits the recorded file: the payment ran after the fetched page entered the conversation', async () => {
    const declarations = { untrusted: [FETCH], privileged: [PAY] };
    const report = auditTrajectory(loadTrajectory(file), declarations);
    expect(report.findings).toHaveLength(1);
    expect(report.text).toContain(
      `'${PAY}' (toolu_02SendPayment, conversation 2, turn 2) ran after the result of '${FETCH}' ` +
        '(toolu_01FetchPage, conversation 2, turn 1), which is untrusted, entered the conversation',
    );
    const io = captureIo(work);
    expect(await main(['audit', file, '--untrusted', FETCH, '--privileged', PAY], io)).toBe(1);
    for (const line of report.text.split('\n').filter((text) => text !== '')) expect(io.text()).toContain(line);
  });

  it('views the recorded file: the page renders both conversations and both tool calls', async () => {
    const io = captureIo(work);
    expect(await main(['view', file, '--out', 'view.html'], io), io.text()).toBe(0);
    const html = readFileSync(join(work, 'view.html'), 'utf8');
    for (const shown of [FETCH, PAY, 'toolu_01FetchPage', 'toolu_02SendPayment', 'IBAN GB33 BUKB'])
      expect(html).toContain(shown);
  });
});
