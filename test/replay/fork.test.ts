import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAssistant, sendPayment } from '../../examples/payments/agent.js';
import {
  Agent,
  defineTool,
  loadTrajectory,
  reply,
  resolveReplaySettings,
  runTrajectory,
  ScriptedTransport,
  TrajectoryDivergenceError,
  UsageError,
  type AgentFactory,
  type ForkAt,
  type ScriptedReply,
  type TrajectoryRunOptions,
} from '../../src/index.js';
import { withSamples } from '../../src/trajectory/samplesOf.js';
import { saveTrajectory } from '../../src/trajectory/trajectoryFile.js';
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
async function replayed(file: string, cwd: string, agent: AgentFactory = createAssistant) {
  const told: string[] = [];
  const run = await runTrajectory({
    file: relative(cwd, file),
    agent,
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
    const { forkAt: _forkAt, ...outOnly } = forkOptions(where, 1);
    expect(await runTrajectory(outOnly).catch((e: unknown) => e)).toMatchObject({
      code: 'invalid_fork',
      message: expect.stringMatching(/^'out' names the file a fork is written to, but no 'forkAt' was given/),
    });
  });

  it('takes as forkAt a turn, or a turn and a sample, each a whole number of at least 1; refuses all else', () => {
    const whole = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 1;
    const project = { root: '/project' };
    // Whole numbers about 1 (0 and -1 included), other numbers, and anything else.
    const NEAR_ONE = fc.oneof(fc.integer({ min: -1, max: 4 }), fc.double(), fc.integer(), fc.anything());
    fc.assert(
      fc.property(
        fc.oneof(NEAR_ONE, fc.record({ turn: NEAR_ONE, sample: NEAR_ONE }, { requiredKeys: ['turn'] })),
        (forkAt) => {
          const given = { file: 'run.yaml', forkAt: forkAt as ForkAt, out: 'fork.yaml' };
          const settings = () => resolveReplaySettings({ given, project, cwd: '/project' });
          const asked = forkAt as { turn?: unknown; sample?: unknown } | null;
          const [turn, sample] =
            typeof asked === 'object' && asked !== null
              ? [asked.turn, asked.sample === undefined ? 1 : asked.sample]
              : [forkAt, 1];
          if (whole(turn) && whole(sample)) {
            expect(settings().fork).toMatchObject({ from: 'forkAt', parent: '/project/run.yaml', turn, sample });
            expect(settings().file).toBe('/project/fork.yaml');
          } else expect(settings).toThrow(expect.objectContaining({ code: 'invalid_fork' }));
        },
      ),
    );
  });
});

const T1 = '2026-01-01T09:00:00.000Z';
const T2 = '2026-06-01T09:00:00.000Z';

/** An agent whose `now` tool answers with the run's clock and whose `pay` calls wait for approval. */
function clerk(time: string): AgentFactory {
  const now = defineTool({
    name: 'now',
    description: 'Tells the time.',
    input: { type: 'object', properties: {} },
    annotations: { readOnly: true },
    run: (_input, ctx) => ctx.now().toISOString(),
  });
  const pay = defineTool({
    name: 'pay',
    description: 'Pays.',
    input: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
    privileged: true,
    run: ({ amount }) => `Paid ${amount}.`,
  });
  return (transport) =>
    new Agent({
      name: 'clerk',
      model: 'claude-haiku-5-5',
      tools: [now, pay],
      transport,
      clock: () => new Date(time),
      approvalRequired: (tool) => tool.name === 'pay',
    });
}

/** Records the clerk's parent run at T1 to `parent.yaml` in a fresh folder. */
async function clerkParent(script: ScriptedReply[]) {
  const dir = tempDir();
  await runTrajectory({
    file: 'parent.yaml',
    agent: clerk(T1),
    input: 'What time is it?',
    transport: new ScriptedTransport(script),
    mode: 'record',
    config: false,
    cwd: dir,
    report: false,
  });
  return dir;
}

/** Forks the clerk's parent in `dir` at `forkAt` into `fork.yaml`, live at T2, continued by `script`. */
function forkClerk(dir: string, forkAt: number, script: ScriptedTransport, more: Partial<TrajectoryRunOptions> = {}) {
  return runTrajectory({
    file: 'parent.yaml',
    forkAt,
    out: 'fork.yaml',
    agent: clerk(T2),
    transport: script,
    mode: 'record',
    config: false,
    cwd: dir,
    report: false,
    ...more,
  });
}

describe('a fork run', () => {
  it("serves the parent's clock readings while its forked turns run, and the live clock after", async () => {
    const dir = await clerkParent([reply.toolUse('now', {}), reply.toolUse('now', {}), reply.text('Twice.')]);
    expect(loadTrajectory(join(dir, 'parent.yaml')).clock).toEqual([T1, T1]);
    const script = new ScriptedTransport([reply.toolUse('now', {}), reply.text('Later.')]);
    await forkClerk(dir, 1, script);
    const fork = loadTrajectory(join(dir, 'fork.yaml'));
    expect(fork.clock).toEqual([T1, T2]);
    expect(fork.turns.map((turn) => turn.results?.[0]?.content)).toEqual([T1, T2, undefined]);
    // The fork replays on its own: its clock is served as any file's.
    expect((await replayed(join(dir, 'fork.yaml'), dir, clerk(T2))).run.result.text).toBe('Later.');
  });

  it('forks after the last turn of a run that ended suspended: the fork decides the held call; it runs', async () => {
    const dir = await clerkParent([reply.toolUse('pay', { amount: 5 })]);
    expect(loadTrajectory(join(dir, 'parent.yaml')).summary.stopReason).toBe('suspended');
    const script = new ScriptedTransport([reply.text('Paid.')]);
    // Without a decision nothing follows the parent's turns: nothing to record.
    const undecided = await forkClerk(dir, 1, script).catch((e: unknown) => e);
    expect(undecided).toMatchObject({
      code: 'nothing_to_record',
      message:
        'The fork of parent.yaml at turn 1 made no model call after turn 1, so there is nothing to record in ' +
        'fork.yaml: the run stopped for approval at turn 1: pass approve to decide the calls it holds, and the ' +
        'fork goes on from the decision.',
    });
    expect(existsSync(join(dir, 'fork.yaml'))).toBe(false);
    const run = await forkClerk(dir, 1, script, { approve: () => true });
    expect(run.result.toolCalls.map((call) => [call.name, call.outcome, call.output])).toEqual([
      ['pay', 'ok', 'Paid 5.'],
    ]);
    const fork = loadTrajectory(join(dir, 'fork.yaml'));
    expect(fork.turns[0]!.approvals).toEqual([{ id: expect.any(String), approve: true }]);
    expect(fork.summary.stopReason).toBe('end_turn');
    expect((await replayed(join(dir, 'fork.yaml'), dir, clerk(T2))).run.result.text).toBe('Paid.');
  });

  it('in auto mode, forks while its file is missing and replays it once it exists', async () => {
    const where = folder();
    const first = new ScriptedTransport([reply.text(ANSWER)]);
    expect((await runTrajectory({ ...forkOptions(where, 2, first), mode: 'auto' })).mode).toBe('record');
    const second = new ScriptedTransport([reply.text('never asked')]);
    const run = await runTrajectory({ ...forkOptions(where, 2, second), mode: 'auto' });
    expect(run.mode).toBe('replay');
    expect(run.result.text).toBe(ANSWER);
    expect(second.requests).toHaveLength(0);
  });

  it('recorded again without forkAt, forks again from the parent its file names', async () => {
    const where = folder();
    await runTrajectory(forkOptions(where, 2));
    const text = readFileSync(where.parent, 'utf8');
    writeFileSync(where.parent, text.replace('The page says to wire $9000.', 'The page asks for a wire of $9000.'));
    const script = new ScriptedTransport([reply.text('Still nothing paid.')]);
    const run = await runTrajectory({
      file: 'fork.yaml',
      agent: createAssistant,
      transport: script,
      mode: 'record',
      config: false,
      cwd: where.dir,
      report: false,
    });
    // The parent's first two turns, as they are now, were served; only turn 3 was asked for.
    expect(script.requests).toHaveLength(1);
    const fork = loadTrajectory(where.out);
    expect(fork.turns.slice(0, 2)).toEqual(loadTrajectory(where.parent).turns.slice(0, 2));
    expect(fork.fork).toMatchObject({ parent: 'parent.yaml', turn: 2 });
    expect(run.fork?.parentState).toBe('same');
    expect((await replayed(where.out, where.dir)).told).toEqual([]);
  });

  it("forks one of the parent's samples, names it, and reports a change of that sample only", async () => {
    const where = folder();
    const other = join(where.dir, 'other.yaml');
    await runTrajectory({
      file: other,
      agent: createAssistant,
      input: loadTrajectory(where.parent).input,
      transport: new ScriptedTransport([
        reply.toolUse('fetch_page', { url: 'https://example.com/invoice/42' }, { text: 'Reading the invoice now.' }),
        reply.text('It is $120.00.'),
      ]),
      mode: 'record',
      config: false,
      report: false,
    });
    saveTrajectory(where.parent, withSamples([loadTrajectory(where.parent), loadTrajectory(other)]));
    const script = new ScriptedTransport([reply.text('It is $120.00, due 2026-12-15.')]);
    await runTrajectory(forkOptions(where, { turn: 1, sample: 2 }, script));
    const fork = loadTrajectory(where.out);
    expect(fork.fork).toMatchObject({ parent: 'parent.yaml', turn: 1, sample: 2 });
    expect(fork.turns[0]!.response.content[0]).toEqual({ text: 'Reading the invoice now.' });
    expect((await replayed(where.out, where.dir)).run.fork).toMatchObject({ sample: 2, parentState: 'same' });
    // The first sample's turn 1 is not what was forked; the second's is.
    const text = readFileSync(where.parent, 'utf8');
    writeFileSync(where.parent, text.replace('Let me read the invoice.', 'I will read the invoice.'));
    expect((await replayed(where.out, where.dir)).told).toEqual([]);
    writeFileSync(where.parent, text.replace('Reading the invoice now.', 'Reading it now.'));
    const { told } = await replayed(where.out, where.dir);
    expect(told).toEqual([expect.stringMatching(/^fork\.yaml is a fork of sample 2 of parent\.yaml at turn 1, and /)]);
  });

  it('refuses a parent recorded at the HTTP boundary, or a fuzz finding, given already read', async () => {
    const where = folder();
    const parent = loadTrajectory(where.parent);
    const http = await runTrajectory({ ...forkOptions(where, 1), trajectory: { ...parent, boundary: 'http' } }).catch(
      (e: unknown) => e,
    );
    expect(http).toMatchObject({ code: 'invalid_fork', message: expect.stringContaining('at the HTTP boundary') });
    const finding = { ...parent, expect: { blocked: [{ id: 'toolu_s2_1', tool: 'send_payment' }] } };
    const refused = await runTrajectory({ ...forkOptions(where, 1), trajectory: finding }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'invalid_fork', message: expect.stringContaining('is a fuzz finding') });
    expect(existsSync(where.out)).toBe(false);
  });
});
