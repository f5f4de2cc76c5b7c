import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import {
  Agent,
  FileStateStore,
  MemoryStateStore,
  ScriptedTransport,
  StoreError,
  SuspensionError,
  defineTool,
  reply,
  type StateStore,
  type StoreOptions,
  type Suspension,
} from '../../src/index.js';
import { SqliteStateStore } from '../../src/store/sqlite.js';
import type { PostgresStateStore } from '../../src/store/postgres.js';
import { useTempDir } from '../support/tempDir.js';
import { usePostgresStores } from '../support/postgresDatabase.js';

const tempDir = useTempDir();
const postgresStore = usePostgresStores();

/** Runs one statement on the suite's server, as anyone who can write the store's tables could. */
async function sql<Row extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<Row[]> {
  const client = new pg.Client(inject('postgresUrl'));
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}
const KEY = 'a key of thirty-two bytes, at least';

interface Kind {
  name: string;
  create: (options?: StoreOptions) => StateStore;
  /** What the store holds on disk or in memory for a run, as text. */
  stored: (store: StateStore, runId: string) => Promise<string>;
  /** Writes a suspension straight into the store's files or tables, as anyone who can write them could. */
  writeRaw?: (store: StateStore, suspension: Suspension) => void | Promise<void>;
}

const kinds: Kind[] = [
  {
    name: 'MemoryStateStore',
    create: (o) => new MemoryStateStore(o),
    stored: async (store, runId) => JSON.stringify(await store.load(runId)),
  },
  {
    name: 'FileStateStore',
    create: (o) => new FileStateStore(join(tempDir(), 'runs'), o),
    stored: async (store, runId) =>
      readFileSync(join((store as FileStateStore).directory, `${encodeURIComponent(runId)}.json`), 'utf8'),
    writeRaw: (store, suspension) =>
      writeFileSync(
        join((store as FileStateStore).directory, `${encodeURIComponent(suspension.runId)}.json`),
        JSON.stringify({ schemaVersion: 1, suspension }),
      ),
  },
  {
    name: 'SqliteStateStore',
    create: (o) => new SqliteStateStore(join(tempDir(), 'runs.db'), o),
    stored: async (store, runId) => {
      const db = new Database((store as SqliteStateStore).file);
      const row = db.prepare('SELECT data FROM legate_suspensions WHERE run_id = ?').get(runId) as { data: string };
      db.close();
      return row.data;
    },
    writeRaw: (store, suspension) => {
      const db = new Database((store as SqliteStateStore).file);
      db.prepare("INSERT OR REPLACE INTO legate_suspensions VALUES (?, ?, ?, 'suspended', 1, ?, '')").run(
        suspension.runId,
        suspension.id,
        suspension.agent,
        JSON.stringify(suspension),
      );
      db.close();
    },
  },
  {
    name: 'PostgresStateStore',
    create: (o) => postgresStore(o),
    stored: async (store, runId) => {
      const { schema } = store as PostgresStateStore;
      const rows = await sql<{ data: string }>(`SELECT data FROM ${schema}.legate_suspensions WHERE run_id = $1`, [
        runId,
      ]);
      return rows[0]!.data;
    },
    writeRaw: async (store, suspension) => {
      const { schema } = store as PostgresStateStore;
      await sql(
        `INSERT INTO ${schema}.legate_suspensions VALUES ($1, $2, $3, 'suspended', 1, $4, now())
         ON CONFLICT (run_id) DO UPDATE SET suspension_id = $2, status = 'suspended', data = $4`,
        [suspension.runId, suspension.id, suspension.agent, JSON.stringify(suspension)],
      );
    },
  },
];

function treasurer(options: { key?: string; effects?: string[]; output?: string; throws?: string } = {}) {
  const effects = options.effects ?? [];
  const wire = defineTool({
    name: 'wire',
    description: 'Wires money.',
    privileged: true,
    input: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
    run: ({ amount }) => {
      effects.push(`wired ${amount}`);
      return 'Wired.';
    },
  });
  const read = defineTool({
    name: 'read_inbox',
    description: 'Reads mail.',
    input: { type: 'object', properties: {} },
    run: () => {
      if (options.throws !== undefined) throw new Error(options.throws);
      return options.output ?? 'No mail.';
    },
  });
  const agent = new Agent({
    name: 'treasurer',
    model: 'm',
    tools: [wire, read],
    transport: new ScriptedTransport([
      reply.toolUses([
        { name: 'read_inbox', input: {} },
        { name: 'wire', input: { amount: 250 } },
      ]),
      reply.text('Done.'),
      reply.text('Done again.'),
    ]),
    approvalRequired: (tool) => tool.privileged,
    ...(options.key === undefined ? {} : { suspensionKey: options.key }),
  });
  return { agent, effects };
}

describe.each(kinds)('$name: a claimed suspension is spent for good', (kind) => {
  it.each([
    ['unsigned', undefined],
    ['signed', KEY],
  ])('%s: saving it again is refused, and written back by hand it still does not resume', async (_label, key) => {
    const store = kind.create();
    const { agent, effects } = treasurer({ key });
    const { suspension } = await agent.run('Pay the supplier.');
    await store.save(suspension!);
    await agent.resume((await store.load(suspension!.runId))!, { approve: true, store });
    expect(effects).toEqual(['wired 250']);

    const error = await store.save(suspension!).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ code: 'already_claimed' });
    await store.delete(suspension!.runId);
    await expect(store.save(suspension!)).rejects.toMatchObject({ code: 'already_claimed' });

    if (kind.writeRaw !== undefined) {
      await kind.writeRaw(store, suspension!);
      const again = treasurer({ key, effects });
      const refused = await again.agent
        .resume((await store.load(suspension!.runId))!, { approve: true, store })
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(SuspensionError);
      expect(refused).toMatchObject({ code: 'already_resumed' });
    }
    expect(effects).toEqual(['wired 250']);
  });

  it('lists a claimed run until its resume finishes', async () => {
    const store = kind.create();
    const { agent } = treasurer();
    const { suspension } = await agent.run('Pay the supplier.');
    await store.save(suspension!);
    expect(await store.list()).toEqual([suspension!.runId]);
    expect(await store.list({ status: 'claimed' })).toEqual([]);
    await agent.resume(suspension!, { approve: true, store, owner: 'worker-1' });
    expect(await store.list()).toEqual([]);
    expect(await store.list({ status: 'claimed' })).toEqual([]);
    expect(await store.claimOf(suspension!.id)).toMatchObject({
      owner: 'worker-1',
      status: 'finished',
      decisions: { [suspension!.pending[0]!.id]: { approve: true } },
    });
  });
});

describe.each(kinds)('$name: what is written to the store', (kind) => {
  it("keeps a failed tool's error class, never its message", async () => {
    const store = kind.create();
    const { agent } = treasurer({
      throws: 'upstream refused token ghp_abcdef0123456789 for https://x.example/?key=zz',
    });
    const { suspension } = await agent.run('Pay the supplier.');
    await store.save(suspension!);
    const text = await kind.stored(store, suspension!.runId);
    expect(text).not.toContain('ghp_abcdef0123456789');
    expect((await store.load(suspension!.runId))!.batch.answered[0]).toMatchObject({
      outcome: 'error',
      error: { errorClass: 'Error', cause: { name: 'Error' } },
    });
  });

  it('refuses a record that holds a credential, without quoting it', async () => {
    const store = kind.create();
    const { agent } = treasurer({ output: 'Your key is sk-ant-api03-SECRETSECRETSECRET' });
    const { suspension } = await agent.run('Pay the supplier.');
    const error = await store.save(suspension!).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ code: 'secret_in_record' });
    expect((error as Error).message).not.toContain('SECRETSECRET');
    expect(await store.load(suspension!.runId)).toBeUndefined();
  });

  it('refuses a declared secret, without quoting it or its pattern', async () => {
    const store = kind.create({ secrets: ['correct-horse-battery'] });
    const { agent } = treasurer({ output: 'The vault code is correct-horse-battery.' });
    const { suspension } = await agent.run('Pay the supplier.');
    const error = await store.save(suspension!).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'secret_in_record' });
    expect((error as Error).message).not.toContain('horse');
  });

  it('applies its redactions, and the run still resumes (unsigned)', async () => {
    const store = kind.create({ redactions: [{ pattern: /sk-ant-[\w-]+/ }] });
    const { agent, effects } = treasurer({ output: 'Your key is sk-ant-api03-SECRETSECRETSECRET' });
    const { suspension } = await agent.run('Pay the supplier.');
    await store.save(suspension!);
    const text = await kind.stored(store, suspension!.runId);
    expect(text).not.toContain('SECRETSECRET');
    expect(text).toContain('[REDACTED]');
    await expect(agent.resume((await store.load(suspension!.runId))!, { approve: true, store })).resolves.toMatchObject(
      { stopReason: 'end_turn' },
    );
    expect(effects).toEqual(['wired 250']);
  });

  it('refuses to redact a signed suspension, which could then never resume', async () => {
    const store = kind.create({ redactions: [{ pattern: /sk-ant-[\w-]+/ }] });
    const { agent } = treasurer({ key: KEY, output: 'Your key is sk-ant-api03-SECRETSECRETSECRET' });
    const { suspension } = await agent.run('Pay the supplier.');
    await expect(store.save(suspension!)).rejects.toMatchObject({ code: 'redaction_breaks_signature' });
  });
});

describe('FileStateStore on a shared folder', () => {
  it('the losing process of a race loads the suspension and is told already_resumed', async () => {
    const folder = join(tempDir(), 'runs');
    const first = new FileStateStore(folder);
    const second = new FileStateStore(folder);
    const { agent, effects } = treasurer();
    const { suspension } = await agent.run('Pay the supplier.');
    await first.save(suspension!);
    const loadedBySecond = await second.load(suspension!.runId);
    await agent.resume((await first.load(suspension!.runId))!, { approve: true, store: first });
    const loadedLate = await second.load(suspension!.runId);
    expect(loadedLate).toEqual(loadedBySecond);
    const other = treasurer({ effects });
    await expect(other.agent.resume(loadedLate!, { approve: true, store: second })).rejects.toMatchObject({
      code: 'already_resumed',
    });
    expect(effects).toEqual(['wired 250']);
  });

  it('keeps a claim an older legate made (its renamed file) spent', async () => {
    const folder = join(tempDir(), 'runs');
    const { agent } = treasurer();
    const { suspension } = await agent.run('Pay the supplier.');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, `${encodeURIComponent(suspension!.runId)}.${suspension!.id}.claimed`),
      JSON.stringify({ schemaVersion: 1, suspension }),
    );
    const store = new FileStateStore(folder);
    await expect(store.save(suspension!)).rejects.toMatchObject({ code: 'already_claimed' });
    expect(await store.list({ status: 'claimed' })).toEqual([suspension!.runId]);
    // Its decision and progress were never recorded: recovery runs nothing and says the outcome is unknown.
    const { agent: later, effects } = treasurer();
    const recovered = await later.recover(suspension!, { store, staleAfterMs: 0, rerun: ['wire'] });
    expect(effects).toEqual([]);
    expect(recovered.toolCalls.find((c) => c.name === 'wire')).toMatchObject({
      outcome: 'error',
      error: { errorClass: 'OutcomeUnknownError' },
    });
  });

  it('skips stray files in its folder when listing', async () => {
    const folder = join(tempDir(), 'runs');
    const store = new FileStateStore(folder);
    const { agent } = treasurer();
    const { suspension } = await agent.run('Pay the supplier.');
    await store.save(suspension!);
    writeFileSync(join(folder, '%E0%A4%A.json'), '{}');
    writeFileSync(join(folder, 'notes.json'), 'not json');
    writeFileSync(join(folder, 'README'), 'hello');
    writeFileSync(join(folder, 'claims', 'stray'), 'hello');
    mkdirSync(join(folder, 'claims', '%E0%A4%A'));
    expect(await store.list()).toEqual([suspension!.runId]);
    expect(() => new FileStateStore(folder)).not.toThrow();
    expect(await store.list({ status: 'claimed' })).toEqual([]);
  });

  it('removes temporary files left by killed writers when opened, and leaves a live writer’s', () => {
    const folder = join(tempDir(), 'runs');
    new FileStateStore(folder);
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    }).stdout;
    const dead = `.run.json.legate-tmp-${gone}-0123abcd`;
    const live = `.run.json.legate-tmp-${process.pid}-89abcdef`;
    writeFileSync(join(folder, dead), '{"half');
    writeFileSync(join(folder, live), '{"half');
    new FileStateStore(folder);
    const left = readdirSync(folder);
    expect(left).not.toContain(dead);
    expect(left).toContain(live);
  });
});

describe('SqliteStateStore opening a database an older legate wrote', () => {
  it('keeps its claimed suspensions spent', async () => {
    const file = join(tempDir(), 'runs.db');
    const { agent } = treasurer();
    const { suspension } = await agent.run('Pay the supplier.');
    const db = new Database(file);
    db.exec(`CREATE TABLE legate_suspensions (run_id TEXT PRIMARY KEY, suspension_id TEXT NOT NULL, agent TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('suspended', 'claimed')), schema_version INTEGER NOT NULL,
      data TEXT NOT NULL, updated_at TEXT NOT NULL)`);
    db.prepare(
      "INSERT INTO legate_suspensions VALUES (?, ?, 'treasurer', 'claimed', 1, ?, '2026-01-01T00:00:00.000Z')",
    ).run(suspension!.runId, suspension!.id, JSON.stringify(suspension));
    db.close();
    const store = new SqliteStateStore(file);
    await expect(store.save(suspension!)).rejects.toMatchObject({ code: 'already_claimed' });
    expect(await store.list()).toEqual([]);
    expect(await store.list({ status: 'claimed' })).toEqual([suspension!.runId]);
    expect(await store.claimOf(suspension!.id)).toMatchObject({
      owner: 'unknown',
      status: 'claimed',
      decisions: {},
      calls: {},
    });
    store.close();
  });
});
