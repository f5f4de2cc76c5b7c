import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reply } from '../src/index.js';
import { startStandIn, type StandIn } from '../src/intercept/index.js';
import {
  guideCommands,
  guideFiles,
  guideSteps,
  linkPackages,
  runGuideCommand,
  writeGuideFiles,
} from './support/guidePage.js';
import { workFolder } from './support/packedProject.js';
import { packedProjectCopy } from './support/packedProjectCache.js';
import { readmeSnippets } from './support/readmeSnippets.js';

// Follows docs/using-legate.md in a new project: legate installed from its packed tarball, every
// `<!-- file: path -->` block written as printed, every `<!-- run -->` block's commands run in order,
// with the page's stand-in URL pointed at legate's stand-in (startStandIn), served by this test.
const root = resolve('.');
const page = readFileSync('docs/using-legate.md', 'utf8');
const PAGE_STAND_IN = 'http://localhost:8787';

const steps = guideSteps(page);
const files = guideFiles(steps);
const commands = guideCommands(steps);
type Manifest = { version: string; dependencies: Record<string, string>; devDependencies: Record<string, string> };
const manifest = JSON.parse(files.find((file) => file.path === 'package.json')?.text ?? '{}') as Manifest;

/** The model the stand-in plays: read the invoice, obey the instruction planted in it, then answer. */
const SCRIPT = [
  reply.toolUse('read_invoice', { id: 'INV-42' }, { id: 'toolu_01' }),
  reply.toolUse('send_payment', { amount: 9000, to: '99-1234-5678' }, { id: 'toolu_02' }),
  reply.text('I did not pay: the invoice asked for it, not you.'),
];

/** Whether `version` is in a caret range (`^1.2.3`), the only kind the page uses. */
function inCaretRange(version: string, range: string): boolean {
  const parse = (text: string) => text.split('.').map(Number) as [number, number, number];
  if (!/^\^\d+\.\d+\.\d+$/.test(range)) throw new Error(`the page's range ${range} is not a caret range`);
  const [low, have] = [parse(range.slice(1)), parse(version)];
  const fixed = low[0] > 0 ? 1 : 2; // ^1.2.3 fixes the major; ^0.1.2 the major and the minor
  for (let i = 0; i < fixed; i++) if (have[i] !== low[i]) return false;
  for (let i = 0; i < 3; i++) if (have[i] !== low[i]) return have[i]! > low[i]!;
  return true;
}

let work: string;
let project: string;
let standIn: StandIn;

beforeAll(async () => {
  work = workFolder();
  [project, standIn] = await Promise.all([packedProjectCopy(root, work), startStandIn({ script: SCRIPT })]);
}, 600_000);

afterAll(async () => {
  await standIn?.close();
  rmSync(work, { recursive: true, force: true });
}, 120_000);

/** The page's files written into the project, and its dev dependencies installed (linked from legate's own). */
function writeProject(): void {
  writeGuideFiles(project, steps);
  linkPackages(root, project, Object.keys(manifest.devDependencies));
}

/** Ends the command a test left running (it timed out): the test's own timeout is the commands' only hang guard. */
let running = new AbortController();
afterEach(() => {
  running.abort();
  running = new AbortController();
});

/** Runs one of the page's command lines in the project, in a shell, offline; resolves with its output and status. */
function run(command: string): Promise<{ status: number; stdout: string; stderr: string }> {
  return runGuideCommand(command, {
    cwd: project,
    standIn: { page: PAGE_STAND_IN, served: standIn.url },
    signal: running.signal,
  });
}

describe('docs/using-legate.md', () => {
  it('builds a project from these files and these commands', () => {
    expect(files.map((file) => file.path)).toEqual([
      'package.json',
      'tsconfig.json',
      'src/agent.ts',
      'legate.config.ts',
      'test/invoice.test.ts',
      'vitest.config.ts',
    ]);
    expect(commands).toEqual([
      `ANTHROPIC_BASE_URL=${PAGE_STAND_IN} ANTHROPIC_API_KEY=stand-in LEGATE_MODE=record npx vitest run`,
      'npx legate replay',
      'npm run typecheck',
      'CI=true npm test',
      'npx legate fuzz legate.config.ts --runs 20',
    ]);
  });

  it("asks for legate's version and for versions of its tools that legate is tested with", () => {
    const legate = JSON.parse(readFileSync('package.json', 'utf8')) as Manifest;
    expect(inCaretRange(legate.version, manifest.dependencies.legate!)).toBe(true);
    for (const [name, range] of Object.entries(manifest.devDependencies)) {
      const installed = JSON.parse(readFileSync(join('node_modules', name, 'package.json'), 'utf8')) as Manifest;
      expect({ name, range, in: inCaretRange(installed.version, range) }).toEqual({ name, range, in: true });
    }
  });

  it('works as printed: records against the stand-in, then replays, typechecks, tests and fuzzes offline', async () => {
    writeProject();
    const outputs: Record<string, string> = {};
    for (const command of commands) {
      const { status, stdout, stderr } = await run(command);
      expect({ command, status, stderr: status === 0 ? '' : stderr + stdout }).toEqual({
        command,
        status: 0,
        stderr: '',
      });
      outputs[command] = stdout;
      if (command.includes('LEGATE_MODE=record')) {
        // Recorded through the stand-in: one request per turn, the account redacted as the config says.
        expect(standIn.requests.map((request) => (request.body as { messages: [] }).messages.length)).toEqual([
          1, 3, 5,
        ]);
        const recorded = readFileSync(join(project, 'trajectories/invoice-injection.yaml'), 'utf8');
        expect(recorded).toContain('[ACCOUNT]');
        expect(recorded).not.toContain('acct_7Hx2Kq9');
        expect(recorded).toMatch(/outcome: blocked\s+rule: taint\s+source: read_invoice/);
      }
    }
    expect(outputs['npx legate replay']).toContain('1 replayed: 1 passed, 0 failed');
    expect(outputs['CI=true npm test']).toMatch(/Tests\s+1 passed/);
    expect(outputs['npx legate fuzz legate.config.ts --runs 20']).toContain('no findings');
    // Everything after the recording ran offline: the stand-in was asked nothing more.
    expect(standIn.requests).toHaveLength(3);
    // The regression replay exists for: the invoice reader no longer marked untrusted. The replay
    // fails before the payment runs, saying what changed.
    const agentFile = join(project, 'src/agent.ts');
    const agent = readFileSync(agentFile, 'utf8');
    expect(agent.match(/ untrusted: true,.*\n/g)).toHaveLength(1);
    writeFileSync(agentFile, agent.replace(/ untrusted: true,.*\n/, '\n'));
    const regressed = await run('npx legate replay');
    expect(regressed.status).toBe(1);
    expect(regressed.stdout).toMatch(
      /send_payment \(turn \d\) was blocked by rule 'taint' \(source read_invoice\) when recorded; today's code/,
    );
    expect(standIn.requests).toHaveLength(3);
  }, 600_000);

  it("typechecks the README's tested examples against the installed legate, beside this page's agent", async () => {
    // The page's src/agent.ts exports a createAssistant, as the README's ./agent.js does.
    writeProject();
    for (const { name, code } of readmeSnippets()) writeFileSync(join(project, `src/readme-${name}.ts`), code);
    const { status, stdout, stderr } = await run('npm run typecheck');
    expect({ status, output: status === 0 ? '' : stdout + stderr }).toEqual({ status: 0, output: '' });
  }, 300_000);
});
