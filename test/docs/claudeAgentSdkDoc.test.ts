import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadTrajectory } from '../../src/trajectory/trajectoryFile.js';
import { startAgentSdkStandIn, type AgentSdkStandIn } from '../support/agentSdk/agentSdkStandIn.js';
import { PAYMENT_SCRIPT } from '../support/agentSdk/paymentScript.js';
import {
  guideCommands,
  guideFiles,
  guideSteps,
  linkPackages,
  runGuideCommand,
  writeGuideFiles,
} from '../support/guidePage.js';
import { workFolder } from '../support/packedProject.js';
import { packedProjectCopy } from '../support/packedProjectCache.js';

// Follows docs/claude-agent-sdk.md in a new project, as test/usingLegate.test.ts follows docs/using-legate.md:
// legate installed from its packed tarball, the page's files written as printed, its commands run in order, offline,
// the page's stand-in URL pointed at a stand-in of the API playing the payment script to the Claude Agent SDK's
// binary. The binary runs three times: the CLI's recording and replay, and the page's vitest test.
const root = resolve('.');
const page = readFileSync('docs/claude-agent-sdk.md', 'utf8');
const PAGE_STAND_IN = 'http://localhost:8787';
const steps = guideSteps(page);
const files = guideFiles(steps);
const commands = guideCommands(steps);
const FILE = 'trajectories/pay-invoice.yaml';
const AUDIT = `npx legate audit ${FILE} --untrusted mcp__billing__fetch_page --privileged mcp__billing__send_payment`;
type Manifest = { dependencies: Record<string, string>; devDependencies: Record<string, string> };
const manifest = JSON.parse(files.find((file) => file.path === 'package.json')?.text ?? '{}') as Manifest;

/** The page's `text` block right after a marker's block: what it says the command prints. */
function printedAfter(marker: string): string[] {
  const start = page.indexOf(marker);
  const block = /```text\n([\s\S]*?)```/.exec(page.slice(start))?.[1] ?? '';
  return block.split('\n').filter((line) => line !== '');
}

let work: string;
let project: string;
let home: string;
let standIn: AgentSdkStandIn;

beforeAll(async () => {
  work = workFolder();
  home = mkdtempSync(join(tmpdir(), 'legate-agentsdk-home-'));
  [project, standIn] = await Promise.all([
    packedProjectCopy(root, work),
    startAgentSdkStandIn({ script: PAYMENT_SCRIPT }),
  ]);
}, 600_000);

afterAll(async () => {
  await standIn?.close();
  for (const folder of [work, home]) if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
}, 120_000);

/** Ends the command a test left running (it timed out): the test's own timeout is the commands' only hang guard. */
let running = new AbortController();
afterEach(() => {
  running.abort();
  running = new AbortController();
});

/** One of the page's command lines, run in the project with a HOME of its own (Claude Code writes there). */
function run(command: string) {
  const standInUrl = { page: PAGE_STAND_IN, served: standIn.url };
  return runGuideCommand(command, { cwd: project, standIn: standInUrl, signal: running.signal, env: { HOME: home } });
}

const payments = () => readFileSync(join(project, 'payments.jsonl'), 'utf8').trim().split('\n');

describe('docs/claude-agent-sdk.md', () => {
  it('builds a project from these files and these commands', () => {
    expect(files.map((file) => file.path)).toEqual(['package.json', 'agent.mjs', 'test/payInvoice.test.ts']);
    expect(commands).toEqual([
      `ANTHROPIC_BASE_URL=${PAGE_STAND_IN} ANTHROPIC_API_KEY=sk-ant-api03-... npx legate proxy --record ${FILE} -- ` +
        'node agent.mjs',
      `CI=true npx legate proxy ${FILE} -- node agent.mjs`,
      'CI=true npx vitest run',
      AUDIT,
    ]);
  });

  it('works as printed: records the agent, replays it offline, tests it in vitest and audits the flow', async () => {
    writeGuideFiles(project, steps);
    const { legate: _installed, ...others } = { ...manifest.dependencies, ...manifest.devDependencies };
    linkPackages(root, project, Object.keys(others));
    const [recordLine, replayLine, vitestLine, auditLine] = commands as [string, string, string, string];
    const said = (output: { stdout: string; stderr: string }) => output.stdout + output.stderr;

    const record = await run(recordLine);
    expect(record.status, said(record)).toBe(0);
    expect(record.stdout).toBe('Paid 120.00 EUR to ACME Supplies.\n');
    expect(payments()).toHaveLength(1);
    expect(standIn.requests.map((request) => request.answer)).toEqual(['side', 'turn 0', 'turn 1', 'turn 2']);
    expect(loadTrajectory(join(project, FILE))).toMatchObject({
      boundary: 'http',
      client: { app: 'cli' },
      normalised: ['cacheControl', 'userId', 'claudeCodeEnvironment'],
      conversations: [expect.objectContaining({ model: 'claude-sonnet-4-5' })],
    });

    const replay = await run(replayLine);
    expect(replay.status, said(replay)).toBe(0);
    expect(replay.stdout).toBe(record.stdout);
    expect(payments()).toEqual([
      '{"iban":"DE44500105175407324931","amount":120,"currency":"EUR"}',
      '{"iban":"DE44500105175407324931","amount":120,"currency":"EUR"}',
    ]);

    const vitest = await run(vitestLine);
    expect(vitest.status, said(vitest)).toBe(0);
    expect(vitest.stdout).toMatch(/Tests\s+1 passed/);
    expect(payments()).toHaveLength(1);

    // The audit finds the flow and exits 1, printing the page's words.
    const audit = await run(auditLine);
    expect(audit.status, said(audit)).toBe(1);
    for (const line of printedAfter('<!-- run -->\n```sh\nnpx legate audit')) expect(audit.stdout).toContain(line);

    // Only the recording reached the stand-in.
    expect(standIn.requests).toHaveLength(4);
    expect(existsSync(join(home, '.claude.json'))).toBe(true); // the binary kept its state in the HOME given
  }, 600_000);
});
