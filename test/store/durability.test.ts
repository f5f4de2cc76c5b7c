import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PostgresStateStore } from '../../src/store/postgres.js';
import { SqliteStateStore } from '../../src/store/sqlite.js';
import { builtLegate, runBuilt } from '../support/builtPackage.js';
import { freshSchema, postgresReady } from '../support/postgresDatabase.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();
// The processes (killed, racing) are the subject: each runs legate as installed (suspendChild.mjs, plain node, imports
// the built package), so none loads legate's source or a TypeScript loader.
const child = ['test/support/suspendChild.mjs'];
type Kind = 'sqlite' | 'file' | 'postgres';

/** Starts a child and resolves once it prints a line matching `ready`; it then waits to be killed. */
async function startChild(args: string[], ready: RegExp) {
  await builtLegate();
  const process = spawn('node', [...child, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  process.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const reached = new Promise<string>((resolve, reject) => {
    let stdout = '';
    process.stdout.on('data', (chunk) => {
      stdout += String(chunk);
      const match = ready.exec(stdout);
      if (match) resolve(match[1] ?? match[0]);
    });
    process.on('exit', (code) => reject(new Error(`the child exited (${code}) before printing ${ready}: ${stderr}`)));
  });
  return { process, reached };
}

async function kill(process: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => process.on('exit', resolve));
  process.kill('SIGKILL');
  await exited;
  expect(process.signalCode).toBe('SIGKILL');
}

async function run(mode: string, kind: Kind, store: string, effects: string, runId = ''): Promise<string> {
  const done = await runBuilt([...child, mode, kind, store, effects, runId], process.cwd());
  expect(done.stderr).toBe('');
  return done.stdout.trim();
}

/** Where a child keeps its store: a file, a folder, or a connection string and a schema of this test's own. */
async function storeOf(kind: Kind, dir: string): Promise<string> {
  if (kind === 'postgres') return `${await postgresReady()}#${freshSchema()}`;
  return join(dir, kind === 'sqlite' ? 'runs.db' : 'runs');
}

async function suspended(kind: Kind) {
  const dir = tempDir();
  const store = await storeOf(kind, dir);
  const effects = join(dir, 'effects.log');
  const first = await startChild(['suspend', kind, store, effects], /SUSPENDED (\S+)/);
  const runId = await first.reached;
  await kill(first.process);
  expect(existsSync(effects)).toBe(false);
  return { store, effects, runId };
}

const effectLines = (effects: string) =>
  existsSync(effects) ? readFileSync(effects, 'utf8').trim().split('\n').filter(Boolean) : [];

describe('a suspended run survives its process (SQLite store)', () => {
  it('is killed with SIGKILL after suspending; a new process resumes it, and the approved effect happens exactly ' +
    'once', async () => {
    const { store, effects, runId } = await suspended('sqlite');
    expect(await run('resume', 'sqlite', store, effects, runId)).toBe('DONE end_turn The money is on its way.');
    expect(await run('resume', 'sqlite', store, effects, runId)).toBe('REFUSED already_resumed');
    const lines = effectLines(effects);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^wired 250 key legate-[0-9a-f]{32} by process \d+$/);
  }, 120_000);
});

/** The claim on the run's suspension, as the store holds it once the children are done (read from this process). */
async function claimIn(kind: Kind, store: string, runId: string) {
  const opened =
    kind === 'sqlite'
      ? new SqliteStateStore(store)
      : new PostgresStateStore(store.slice(0, store.lastIndexOf('#')), {
          schema: store.slice(store.lastIndexOf('#') + 1),
        });
  try {
    return await opened.claimOf((await opened.load(runId))!.id);
  } finally {
    await opened.close();
  }
}

describe.each<Kind>(['sqlite', 'postgres'])('a resume killed inside its approved call (%s store)', (kind) => {
  it('killed after the effect, before its outcome was recorded: recovery finds the claim and does not run the ' +
    'effect again, and records the outcome unknown', async () => {
    const { store, effects, runId } = await suspended(kind);
    const resumer = await startChild(['resume-die-after-effect', kind, store, effects, runId], /EFFECT/);
    await resumer.reached;
    await kill(resumer.process);
    expect((await claimIn(kind, store, runId))?.status).toBe('claimed');
    expect(await run('recover', kind, store, effects)).toBe('RECOVERED end_turn error OutcomeUnknownError');
    expect(effectLines(effects)).toHaveLength(1);
    const claim = await claimIn(kind, store, runId);
    expect(claim?.status).toBe('finished');
    expect(Object.values(claim?.calls ?? {})).toEqual([{ state: 'unknown' }]);
  }, 120_000);

  it('killed before the effect, recovered with rerun: the effect happens once, and its outcome is ' +
    'recorded', async () => {
    const { store, effects, runId } = await suspended(kind);
    const resumer = await startChild(['resume-die-before-effect', kind, store, effects, runId], /STARTED/);
    await resumer.reached;
    await kill(resumer.process);
    expect(effectLines(effects)).toHaveLength(0);
    expect(await run('recover-rerun', kind, store, effects)).toBe('RECOVERED end_turn ok -');
    expect(effectLines(effects)).toHaveLength(1);
    const claim = await claimIn(kind, store, runId);
    expect(claim?.status).toBe('finished');
    expect(Object.values(claim?.calls ?? {})).toMatchObject([{ state: 'finished', call: { outcome: 'ok' } }]);
  }, 120_000);
});

/** Starts `count` processes resuming the same run at once; resolves to what each printed, sorted. */
async function race(count: number, kind: Kind, store: string, effects: string, runId: string): Promise<string[]> {
  await builtLegate();
  const racers = Array.from(
    { length: count },
    () =>
      new Promise<string>((resolve) => {
        const racer = spawn('node', [...child, 'resume', kind, store, effects, runId], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        racer.stdout.on('data', (chunk) => (out += String(chunk)));
        racer.stderr.on('data', (chunk) => (out += String(chunk)));
        racer.on('exit', () => resolve(out.trim()));
      }),
  );
  return (await Promise.all(racers)).sort();
}

describe('a suspended run survives its process (PostgreSQL store)', () => {
  it('is killed with SIGKILL after suspending; four processes resume it at once: one does, three get ' +
    'already_resumed, and the approved effect happens exactly once', async () => {
    const { store, effects, runId } = await suspended('postgres');
    expect(await race(4, 'postgres', store, effects, runId)).toEqual([
      'DONE end_turn The money is on its way.',
      ...Array(3).fill('REFUSED already_resumed'),
    ]);
    const lines = effectLines(effects);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^wired 250 key legate-[0-9a-f]{32} by process \d+$/);
  }, 120_000);
});

describe('a suspended run survives its process (file store)', () => {
  it('two processes resume it at once: one does, the other gets already_resumed, never a raw file error', async () => {
    const { store, effects, runId } = await suspended('file');
    expect(await race(2, 'file', store, effects, runId)).toEqual([
      'DONE end_turn The money is on its way.',
      'REFUSED already_resumed',
    ]);
    expect(effectLines(effects)).toHaveLength(1);
  }, 120_000);

  it('killed after the effect, recovered with rerun: the tool runs again under the same key, and the effect still ' +
    'happens once', async () => {
    const { store, effects, runId } = await suspended('file');
    const resumer = await startChild(['resume-die-after-effect', 'file', store, effects, runId], /EFFECT/);
    await resumer.reached;
    await kill(resumer.process);
    expect(await run('recover-rerun', 'file', store, effects)).toBe('RECOVERED end_turn ok -');
    expect(effectLines(effects)).toHaveLength(1);
  }, 120_000);
});
