import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { loadTrajectory, samplesOf } from '../../src/index.js';
import { captureIo } from '../support/captureIo.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();
const root = resolve('.');

/**
 * A project whose agent looks an account up, recorded from the seeded stand-in model (test/support/seededModel.ts):
 * its samples differ, as a live model's runs do. `answer` is what today's lookup tool says.
 */
let projects = 0;

function project(answer = 'open', extra = ''): string {
  const dir = join(tempDir(), `project-${projects++}`);
  mkdirSync(join(dir, 'trajectories'), { recursive: true });
  writeFileSync(
    join(dir, 'legate.config.ts'),
    [
      `import { Agent, defineConfig, defineTool } from '${root}/src/index.ts';`,
      `import { seededModel } from '${root}/test/support/seededModel.ts';`,
      'const lookup = defineTool({',
      "  name: 'lookup', description: 'Looks an account up.', annotations: { readOnly: true },",
      "  input: { type: 'object', properties: { account: { type: 'string' } }, required: ['account'] },",
      `  run: ({ account }) => \`\${account}: ${answer}\`,`,
      '});',
      'export default defineConfig({',
      "  agents: { accounts: (transport) => new Agent({ name: 'accounts', model: 'claude-haiku-5-5', transport, " +
        'tools: [lookup] }) },',
      `  transport: seededModel(7).transport, ${extra}`,
      '});',
    ].join('\n'),
  );
  // The file to record: its input, as any trajectory holds it (recorded once, then re-recorded with samples).
  return dir;
}

async function legate(dir: string, ...args: string[]) {
  const io = captureIo(dir);
  const code = await main(args, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

/** Records the corpus's one file from nothing: a first recording in code, then `--record --samples 5`. */
async function recorded(dir: string) {
  const { runTrajectory } = await import('../../src/index.js');
  const { seededModel } = await import('../support/seededModel.js');
  const { default: config } = await import(join(dir, 'legate.config.ts'));
  await runTrajectory({
    file: join(dir, 'trajectories/accounts.yaml'),
    agent: config.agents.accounts,
    input: 'Is acct-7 open?',
    mode: 'record',
    config: false,
    transport: seededModel(1).transport,
    report: false,
  });
  return legate(dir, 'replay', '--record', '--samples', '5');
}

describe('legate replay with samples', () => {
  it('records k samples with --record --samples, and replays them all', async () => {
    const dir = project();
    const recording = await recorded(dir);
    expect(recording.code).toBe(0);
    expect(recording.out).toContain('5/5 samples passed');
    const file = loadTrajectory(join(dir, 'trajectories/accounts.yaml'));
    expect(samplesOf(file)).toHaveLength(5);
    const replay = await legate(dir, 'replay');
    expect(replay.code).toBe(0);
    expect(replay.out).toMatch(/✓ trajectories\/accounts\.yaml {2}5\/5 samples passed; /);
  });

  it('fails the file when a code change breaks some samples, names them, and prints the flakiness table', async () => {
    const dir = project();
    await recorded(dir);
    const looked = samplesOf(loadTrajectory(join(dir, 'trajectories/accounts.yaml'))).map((s) => s.turns.length > 1);
    const failed = looked.flatMap((lookup, i) => (lookup ? [i + 1] : []));
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.length).toBeLessThan(5);
    // Today's lookup answers differently (a project of its own: a config module is imported once per process).
    const today = project('closed');
    const copied = readFileSync(join(dir, 'trajectories/accounts.yaml'), 'utf8');
    writeFileSync(join(today, 'trajectories/accounts.yaml'), copied);
    const replay = await legate(today, 'replay', '--flakiness', '--reporter', 'junit', '--output', 'junit.xml');
    expect(replay.code).toBe(1);
    const passed = 5 - failed.length;
    expect(replay.out).toContain(`${passed}/5 samples passed, but the rule is every sample (pass^5)`);
    expect(replay.out).toContain(`Sample ${failed[0]} of 5: the request for turn 2 differs`);
    expect(replay.out).toMatch(new RegExp(`trajectories/accounts\\.yaml +5 +${passed}/5 +${failed.join(', ')}`));
    const junit = readFileSync(join(today, 'junit.xml'), 'utf8');
    expect(junit).toContain(`<property name="samples" value="${passed}/5 passed"/>`);
    expect(junit).toContain('<failure message=');
    // The HTML report's index shows the figure on the file's badge.
    expect(await legate(today, 'replay', '--reporter', 'html', '--output', 'report.html')).toMatchObject({ code: 1 });
    expect(readFileSync(join(today, 'report.html'), 'utf8')).toContain(`diverged · ${passed}/5 samples`);
    // The rule in force decides: at least as many as passed is a pass.
    expect((await legate(today, 'replay', '--pass', String(passed))).code).toBe(0);
    expect((await legate(today, 'replay', '--pass', `${passed * 20}%`)).code).toBe(0);
    expect((await legate(today, 'replay', '--pass', String(passed + 1))).code).toBe(1);
    // The config's rule applies under --pass.
    const lenient = project('closed', 'pass: { atLeast: 1 },');
    writeFileSync(join(lenient, 'trajectories/accounts.yaml'), copied);
    expect((await legate(lenient, 'replay')).code).toBe(0);
    expect((await legate(lenient, 'replay', '--pass', 'all')).code).toBe(1);
  });

  it('refuses --samples and --pass it cannot use, in one line, exit 2', async () => {
    const dir = project();
    for (const [flag, value, words] of [
      ['--samples', '0', "--samples must be a whole number from 1 to 100 (e.g. --samples 5), but it was '0'."],
      ['--samples', 'many', "--samples must be a whole number from 1 to 100 (e.g. --samples 5), but it was 'many'."],
      ['--pass', '0', "--pass must be 'all', a number of samples that must pass (e.g. --pass 4), or a percentage"],
      ['--pass', '120%', "--pass must be 'all', a number of samples that must pass"],
    ] as const) {
      const { code, err } = await legate(dir, 'replay', flag, value);
      expect(code).toBe(2);
      expect(err.split('\n')).toHaveLength(1);
      expect(err).toContain(`legate replay: ${words}`);
    }
  });
});
