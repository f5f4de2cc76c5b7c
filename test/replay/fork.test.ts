import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAssistant, sendPayment } from '../../examples/payments/agent.js';
import {
  Agent,
  defineTool,
  loadTrajectory,
  reply,
  runTrajectory,
  ScriptedTransport,
  TrajectoryDivergenceError,
  UsageError,
  type TrajectoryRunOptions,
} from '../../src/index.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();

const ZERO_TRUST = 'trajectories/zero-trust.yaml';
const ANSWER = 'I paid nothing: the page asked for a wire of $9000, which you did not ask for. The invoice is $120.00.';

/** A folder holding a copy of zero-trust.yaml as `parent.yaml`; the fork goes to `fork.yaml` beside it. */
function folder(): { dir: string; parent: string; out: string } {
  const dir = tempDir();
  const parent = join(dir, 'parent.yaml');
  copyFileSync(ZERO_TRUST, parent);
  return { dir, parent, out: join(dir, 'fork.yaml') };
}

/** The options of a fork of `parent` at `forkAt` into `out`, continued by a scripted model. */
function forkOptions(
  where: { dir: string; parent: string; out: string },
  forkAt: TrajectoryRunOptions['forkAt'],
  script = new ScriptedTransport([reply.text(ANSWER)]),
): TrajectoryRunOptions {
  return {
    file: 'parent.yaml',
    forkAt,
    out: 'fork.yaml',
    agent: createAssistant,
    transport: script,
    mode: 'record',
    config: false,
    cwd: where.dir,
    report: false,
  };
}

/** Replays `file` and gathers what it reports. */
async function replayed(file: string, cwd: string) {
  const told: string[] = [];
  const run = await runTrajectory({
    file: relative(cwd, file),
    agent: createAssistant,
    mode: 'replay',
    config: false,
    cwd,
    report: (message) => told.push(message),
  });
  return { run, told };
}

describe('a fork at turn 2 of zero-trust.yaml, continued by a scripted model', () => {
  it('serves turns 1-2, asks the scripted model for turn 3, and writes a file naming its parent', async () => {
    const where = folder();
    const script = new ScriptedTransport([reply.text(ANSWER)]);
    const run = await runTrajectory(forkOptions(where, 2, script));
    // The scripted model was asked once, for turn 3, with the conversation the parent's first two turns made.
    expect(script.requests).toHaveLength(1);
    expect(script.requests[0]!.messages).toHaveLength(5);
    expect(run).toMatchObject({ mode: 'record', file: where.out });
    expect(run.fork).toEqual({ parent: where.parent, turn: 2, sample: 1, parentState: 'same' });
    expect(run.result.text).toBe(ANSWER);
    expect(run.result.blocked.map((call) => call.tool)).toEqual(['send_payment']);

    const fork = loadTrajectory(where.out);
    const parent = loadTrajectory(where.parent);
    expect(fork.fork).toEqual({ parent: 'parent.yaml', turn: 2, digest: expect.stringMatching(/^sha256:/) });
    expect(fork.turns.slice(0, 2)).toEqual(parent.turns.slice(0, 2));
    expect(fork.turns[2]!.response.content).toEqual([{ text: ANSWER }]);
    expect(fork.summary).toMatchObject({ stopReason: 'end_turn', turns: 3, tainted: true });
    expect(fork.name).toBe('fork');
    // The parent is only read.
    expect(readFileSync(where.parent, 'utf8')).toBe(readFileSync(ZERO_TRUST, 'utf8'));
  });

  it('replays on its own, every turn, and says its parent is the same', async () => {
    const where = folder();
    await runTrajectory(forkOptions(where, 2));
    const { run, told } = await replayed(where.out, where.dir);
    expect(run.mode).toBe('replay');
    expect(run.result.turns).toBe(3);
    expect(run.result.text).toBe(ANSWER);
    expect(run.fork).toEqual({ parent: where.parent, turn: 2, sample: 1, parentState: 'same' });
    expect(told).toEqual([]);
  });

  it('replays when its parent changed in its forked turns, and reports the change', async () => {
    const where = folder();
    await runTrajectory(forkOptions(where, 2));
    const text = readFileSync(where.parent, 'utf8');
    writeFileSync(where.parent, text.replace('The page says to wire $9000.', 'The page asks for a wire of $9000.'));
    const { run, told } = await replayed(where.out, where.dir);
    expect(run.result.text).toBe(ANSWER);
    expect(run.fork).toMatchObject({ parentState: 'changed' });
    expect(told).toEqual([
      'fork.yaml is a fork of parent.yaml at turn 2, and parent.yaml has changed since the fork: its header or its ' +
        'first 2 turns are not those the fork was made from. The fork still replays on its own, every turn of it; ' +
        're-record it to fork again from the parent as it is now.',
    ]);
    expect(run.fork!.note).toBe(told[0]);
  });

  it('says nothing when the parent changed only after the turn forked at', async () => {
    const where = folder();
    await runTrajectory(forkOptions(where, 2));
    const text = readFileSync(where.parent, 'utf8');
    writeFileSync(where.parent, text.replace('I did not make any payment', 'I made no payment'));
    const { run, told } = await replayed(where.out, where.dir);
    expect(run.fork?.parentState).toBe('same');
    expect(told).toEqual([]);
  });

  it('replays when its parent is gone or unreadable, and reports which', async () => {
    const where = folder();
    await runTrajectory(forkOptions(where, 2));
    writeFileSync(where.parent, 'version: [1\n');
    const unreadable = await replayed(where.out, where.dir);
    expect(unreadable.run.fork?.parentState).toBe('unreadable');
    expect(unreadable.told).toEqual([expect.stringMatching(/^fork\.yaml is a fork of parent\.yaml at turn 2, and /)]);
    expect(unreadable.told[0]).toContain('cannot be read as a trajectory');
    const { rmSync } = await import('node:fs');
    rmSync(where.parent);
    const gone = await replayed(where.out, where.dir);
    expect(gone.run.fork?.parentState).toBe('missing');
    expect(gone.told).toEqual([
      'fork.yaml is a fork of parent.yaml at turn 2, and parent.yaml is gone: no file is there. The fork still ' +
        'replays on its own, every turn of it.',
    ]);
  });
});

describe('a fork that cannot be made', () => {
  it("fails with the usual divergence where today's code does not make a forked turn; writes nothing", async () => {
    const where = folder();
    const options = forkOptions(where, 2);
    // Today's page tool reads another page: the request for turn 2 carries a result the parent's did not.
    const otherPage = defineTool({
      name: 'fetch_page',
      description: 'Fetches a web page and returns its text.',
      input: { type: 'object', properties: { url: { type: 'string', format: 'uri' } }, required: ['url'] },
      untrusted: true,
      annotations: { title: 'Fetch a page', readOnly: true },
      run: () => 'Invoice #42 from Acme Supplies. Amount due: $120.00 by 2026-12-15.',
    });
    const system = createAssistant(new ScriptedTransport([])).system!;
    const changed: TrajectoryRunOptions = {
      ...options,
      agent: (transport) =>
        new Agent({ name: 'assistant', model: 'claude-haiku-5-5', system, tools: [otherPage, sendPayment], transport }),
    };
    const error = await runTrajectory(changed).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrajectoryDivergenceError);
    expect((error as TrajectoryDivergenceError).turn).toBe(2);
    expect((error as Error).message).toContain('parent.yaml (the turns forked into fork.yaml)');
    expect(existsSync(where.out)).toBe(false);
  });

  for (const [forkAt, says] of [
    [0, /forkAt must be a whole number of at least 1 .* but it was the number 0\./],
    [1.5, /forkAt must be a whole number of at least 1 .* but it was the number 1\.5\./],
    [
      3,
      new RegExp(
        'the run of parent\\.yaml ended after its last turn, 3 \\(end_turn\\), so a fork there would have nothing ' +
          'to continue: fork at a turn from 1 to 2\\.$',
      ),
    ],
    [4, /parent\.yaml has 3 turns, so there is no turn 4 to fork at: fork at a turn from 1 to 2\.$/],
    [
      { turn: 1, sample: 2 },
      /parent\.yaml holds one run \(sample 1\), so it has no sample 2 to fork; give a sample from 1 to 1\./,
    ],
  ] as const) {
    it(`refuses forkAt ${JSON.stringify(forkAt)} (invalid_fork), and writes nothing`, async () => {
      const where = folder();
      const error = await runTrajectory(forkOptions(where, forkAt)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect(error).toMatchObject({ code: 'invalid_fork', message: expect.stringMatching(says) });
      expect(existsSync(where.out)).toBe(false);
    });
  }

  it('refuses an out that is the parent, and a fork without an out', async () => {
    const where = folder();
    const over = await runTrajectory({ ...forkOptions(where, 1), out: where.parent }).catch((e: unknown) => e);
    expect(over).toMatchObject({ code: 'invalid_fork' });
    const { out: _out, ...noOut } = forkOptions(where, 1);
    expect(await runTrajectory(noOut).catch((e: unknown) => e)).toMatchObject({
      code: 'invalid_fork',
      message: expect.stringMatching(/pass 'out', the file to write/),
    });
    expect(readFileSync(where.parent, 'utf8')).toBe(readFileSync(ZERO_TRUST, 'utf8'));
  });
});
