import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.js';
import { startStandIn } from '../../src/intercept/index.js';
import { diffTrajectories, loadTrajectory, reply, samplesOf } from '../../src/index.js';
import { captureIo } from '../support/captureIo.js';
import { corpusProject, liveAt } from '../support/corpusProject.js';
import { corpusStandIn } from '../support/corpusStandIn.js';
import { useTempDir } from '../support/tempDir.js';

// Issue 35: `legate rerecord <paths> --out <folder> [--model id] [--samples k]` records each trajectory's input again,
// live (the Anthropic SDK's transport, over HTTP to a stand-in of the model), into a new folder, never over the old.

const tempDir = useTempDir();
afterEach(() => vi.unstubAllEnvs());

/** A few shipped files: an approval, a handoff, a sub-agent, and a tool that reads the clock. */
const FEW = [
  'trajectories/approval-denied.yaml',
  'trajectories/handoff-to-billing.yaml',
  'trajectories/researcher-taints-caller.yaml',
  'trajectories/tool-loop.yaml',
];

/** Every file under `folder`, with its bytes. */
function contents(folder: string): Record<string, string> {
  const files = readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return Object.fromEntries(
    files.map((entry) => [
      join(entry.parentPath, entry.name),
      readFileSync(join(entry.parentPath, entry.name), 'utf8'),
    ]),
  );
}

/** Runs legate in `dir`: its exit code and what it printed. */
async function legate(dir: string, ...argv: string[]) {
  const io = captureIo(dir);
  const code = await main(argv, io);
  return { code, ...io };
}

describe('legate rerecord', () => {
  it('records each input again into --out, by its path under the folder given; the old files only read', async () => {
    const dir = corpusProject(tempDir(), FEW);
    mkdirSync(join(dir, 't', 'desk'));
    writeFileSync(join(dir, 't', 'desk', 'refusal.yaml'), readFileSync('trajectories/refusal.yaml'));
    const old = contents(join(dir, 't'));
    const standIn = await corpusStandIn([...FEW, 'trajectories/refusal.yaml']);
    liveAt(standIn.url);
    const run = await legate(dir, 'rerecord', 't', '--out', 'new').finally(() => standIn.close());
    expect(run.code, run.text()).toBe(0);
    expect(run.stdout).toEqual([
      '✓ t/approval-denied.yaml → new/approval-denied.yaml: 2 turns, end_turn; blocked wire_money (approval)',
      '✓ t/desk/refusal.yaml → new/desk/refusal.yaml: 1 turn, refusal',
      '✓ t/handoff-to-billing.yaml → new/handoff-to-billing.yaml: 4 turns, end_turn',
      '✓ t/researcher-taints-caller.yaml → new/researcher-taints-caller.yaml: 3 turns, end_turn; blocked ' +
        'publish_post (taint from ask_researcher); tainted by ask_researcher',
      '✓ t/tool-loop.yaml → new/tool-loop.yaml: 2 turns, end_turn',
      '',
      'recorded 5 files again into new',
    ]);
    expect(contents(join(dir, 't'))).toEqual(old);
    // The model answered as it did: each file is the old one (the denial applied again from the recording, the
    // handoff and the sub-agent's conversation recorded where they happened), but for the clock the order tool read.
    for (const file of Object.keys(old)) {
      const changes = diffTrajectories(loadTrajectory(file), loadTrajectory(file.replace('/t/', '/new/')));
      const where = changes.map((change) => `${change.where} at ${change.path}`);
      expect(where, file).toEqual(
        file.endsWith('tool-loop.yaml') ? ['header at clock[0]', 'turn 1 at results[0].content'] : [],
      );
    }
    // And they replay with the config's agents, offline.
    vi.stubEnv('ANTHROPIC_BASE_URL', 'http://127.0.0.1:1');
    const replayed = await legate(dir, 'replay', '--workers', '1', 'new');
    expect(replayed.code, replayed.text()).toBe(0);
  }, 60_000);

  it("--model: every request goes out with that model; the file records the agent's, and replays with it", async () => {
    const dir = corpusProject(tempDir(), ['trajectories/tool-loop.yaml']);
    // A script answers with the model each request names.
    const standIn = await startStandIn({
      script: [
        reply.toolUse('lookup_order', { orderId: 'A-1001' }, { text: 'Let me look that up.' }),
        reply.text('Your order A-1001 (a kettle and a tea tin) has shipped.'),
      ],
    });
    liveAt(standIn.url);
    const run = await legate(dir, 'rerecord', 't/tool-loop.yaml', '--out', 'next', '--model', 'claude-next-1').finally(
      () => standIn.close(),
    );
    expect(run.code, run.text()).toBe(0);
    expect(run.stdout.at(-1)).toBe('recorded 1 file again into next (model claude-next-1)');
    expect(standIn.requests.map((request) => (request.body as { model: string }).model)).toEqual([
      'claude-next-1',
      'claude-next-1',
    ]);
    const recorded = loadTrajectory(join(dir, 'next', 'tool-loop.yaml'));
    expect(recorded.request.model).toBe('claude-haiku-5-5');
    expect(recorded.model).toBe('claude-next-1');
    expect(recorded.turns.map((turn) => turn.response.model)).toEqual(['claude-next-1', 'claude-next-1']);
    const replayed = await legate(dir, 'replay', '--workers', '1', 'next');
    expect(replayed.code, replayed.text()).toBe(0);
    const compared = await legate(dir, 'compare', 't', 'next');
    expect(compared.code, compared.text()).toBe(0);
    expect(compared.stdout.at(-1)).toMatch(/; model claude-haiku-5-5 → claude-next-1$/);
  });

  it('--samples k: each file holds k runs of its input; compare shows the pass rates side by side', async () => {
    const dir = corpusProject(tempDir(), ['trajectories/tool-loop.yaml', 'trajectories/refusal.yaml']);
    const standIn = await corpusStandIn(['trajectories/tool-loop.yaml', 'trajectories/refusal.yaml']);
    liveAt(standIn.url);
    const run = await legate(dir, 'rerecord', 't', '--out', 'new', '--samples', '3').finally(() => standIn.close());
    expect(run.code, run.text()).toBe(0);
    expect(run.stdout[0]).toBe('✓ t/refusal.yaml → new/refusal.yaml: 3/3 samples passed; 1 turn, refusal');
    expect(samplesOf(loadTrajectory(join(dir, 'new', 'tool-loop.yaml')))).toHaveLength(3);
    const compared = await legate(dir, 'compare', 't', 'new');
    expect(compared.code, compared.text()).toBe(0);
    expect(compared.stdout[0]).toMatch(/\s+passed$/);
    const cells = (file: string) => compared.stdout.find((line) => line.startsWith(file))!.split(/\s{2,}/);
    expect(cells('refusal.yaml')).toEqual([
      'refusal.yaml',
      'changed',
      ...Array(5).fill('same'),
      '289',
      '26',
      '0/1 | 0/3',
    ]);
    expect(cells('tool-loop.yaml').at(-1)).toBe('1/1 | 3/3');
  });

  it('records what it can: a file no agent of the config made, or of an agent it lacks, gets ✗; exit 1', async () => {
    const dir = corpusProject(tempDir(), ['trajectories/tool-loop.yaml']);
    const text = readFileSync('trajectories/refusal.yaml', 'utf8');
    writeFileSync(join(dir, 't', 'http.yaml'), text.replace(/^agent: /m, 'boundary: http\nagent: '));
    writeFileSync(join(dir, 't', 'stranger.yaml'), text.replace(/^agent: calculator$/m, 'agent: stranger'));
    const standIn = await corpusStandIn(['trajectories/tool-loop.yaml']);
    liveAt(standIn.url);
    const run = await legate(dir, 'rerecord', 't', '--out', 'new').finally(() => standIn.close());
    expect(run.code, run.text()).toBe(1);
    expect(run.stdout).toEqual([
      '✗ t/http.yaml → new/http.yaml: recorded at the HTTP boundary (legate/intercept): no agent of legate.config.ts ' +
        'made it, so it is recorded again by the test that recorded it, not here.',
      expect.stringMatching(
        /^✗ t\/stranger\.yaml → new\/stranger\.yaml: names agent 'stranger', which legate\.config\.ts does not /,
      ),
      '✓ t/tool-loop.yaml → new/tool-loop.yaml: 2 turns, end_turn',
      '',
      'recorded 1 of 3 files again into new; 2 could not be recorded',
    ]);
    expect(readdirSync(join(dir, 'new'))).toEqual(['tool-loop.yaml']);
  });

  it('stops with one line when the live API cannot be used (no key): exit 2', async () => {
    const dir = corpusProject(tempDir(), ['trajectories/tool-loop.yaml']);
    liveAt('http://127.0.0.1:1');
    vi.stubEnv('ANTHROPIC_API_KEY', '');
    const run = await legate(dir, 'rerecord', 't', '--out', 'new');
    expect(run.code).toBe(2);
    expect(run.stderr).toEqual([expect.stringMatching(/^legate rerecord: ANTHROPIC_API_KEY is not set/)]);
  });

  it('refuses an --out it must not write, before recording anything: one line, exit 2', async () => {
    const dir = corpusProject(tempDir(), ['trajectories/tool-loop.yaml', 'trajectories/refusal.yaml']);
    mkdirSync(join(dir, 'other'));
    writeFileSync(join(dir, 'other', 'refusal.yaml'), readFileSync('trajectories/refusal.yaml'));
    mkdirSync(join(dir, 'done'));
    writeFileSync(join(dir, 'done', 'refusal.yaml'), 'kept');
    symlinkSync('t', join(dir, 'link'));
    writeFileSync(join(dir, 'notes.txt'), '');
    liveAt('http://127.0.0.1:1'); // nothing listens: a refusal that let a recording start would fail otherwise
    const before = contents(dir);
    const cases: [string[], RegExp][] = [
      [['t'], /^give the folder to write the new files to, e\.g\. legate rerecord trajectories --out rerecorded$/],
      [['t', '--out', 't'], /^--out t is t, which it reads: the new files would be read as old ones; give a folder/],
      [['t', '--out', 't/new'], /^--out t\/new is inside t, which it reads: .*; give a folder outside it\.$/],
      [['t/refusal.yaml', '--out', 'link'], /^--out link would write link\/refusal\.yaml over a file it reads; /],
      [
        ['t/refusal.yaml', 'other/refusal.yaml', '--out', 'new'],
        /^t\/refusal\.yaml and other\/refusal\.yaml would both be written to new\/refusal\.yaml; /,
      ],
      [
        ['t', '--out', 'done'],
        /^done\/refusal\.yaml already exists; nothing was recorded\. Give another --out, or --force to replace them\.$/,
      ],
      [['t', '--out', 'notes.txt'], /^--out notes\.txt is a file; give the folder to write the new files to\.$/],
      [['t/gone.yaml', '--out', 'new'], /^t\/gone\.yaml: does not exist; check the path/],
      [
        ['empty', '--out', 'new'],
        /^no trajectory files \(\*\.yaml\) under empty; give a file or a folder that holds some\.$/,
      ],
      [['t', '--out', 'new', '--model', ' '], /^--model needs a model id, e\.g\. --model claude-sonnet-4-5$/],
      ...['0', '-1', '1.5', 'x', '', '101'].map((k): [string[], RegExp] => [
        ['t', '--out', 'new', '--samples', k],
        new RegExp(`^--samples must be a whole number from 1 to 100 \\(e\\.g\\. --samples 5\\), but it was '${k}'\\.$`),
      ]),
    ];
    for (const [argv, says] of cases) {
      if (argv[0] === 'empty') mkdirSync(join(dir, 'empty'), { recursive: true });
      const run = await legate(dir, 'rerecord', ...argv);
      expect(run.stderr, `${argv.join(' ')}: ${run.text()}`).toEqual([expect.stringMatching(/^legate rerecord: /)]);
      expect(run.stderr[0]!.slice('legate rerecord: '.length)).toMatch(says);
      expect(run.code).toBe(2);
      expect(run.stdout).toEqual([]);
    }
    const after = contents(dir);
    expect(after).toEqual(before);
    expect(existsSync(join(dir, 'new'))).toBe(false);
  });

  it('--force replaces the files already in --out', async () => {
    const dir = corpusProject(tempDir(), ['trajectories/refusal.yaml']);
    mkdirSync(join(dir, 'done'));
    writeFileSync(join(dir, 'done', 'refusal.yaml'), 'old');
    const standIn = await corpusStandIn(['trajectories/refusal.yaml']);
    liveAt(standIn.url);
    const run = await legate(dir, 'rerecord', 't', '--out', 'done', '--force').finally(() => standIn.close());
    expect(run.code, run.text()).toBe(0);
    expect(
      diffTrajectories(loadTrajectory('trajectories/refusal.yaml'), loadTrajectory(join(dir, 'done', 'refusal.yaml'))),
    ).toEqual([]);
  });
});
