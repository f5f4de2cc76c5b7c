import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  type Suspension,
} from '../../../src/index.js';
import { SqliteStateStore } from '../../../src/store/sqlite.js';
import { PostgresStateStore } from '../../../src/store/postgres.js';
import { freshSchema, postgresReady } from '../../support/postgresDatabase.js';

const KEY = 'a key of thirty-two bytes, at least';
const root = mkdtempSync(join(tmpdir(), 'legate-approval-property-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let url: string;
let admin: pg.Pool;
beforeAll(async () => {
  url = await postgresReady();
  admin = new pg.Pool({ connectionString: url });
}, 60_000);
afterAll(() => admin.end());
let made = 0;

/**
 * A store, and what anyone with access to its files or tables could do to it: write a record by hand, back it up,
 * restore the backup.
 */
interface Harness {
  store(): StateStore;
  writeRaw?(suspension: Suspension): void | Promise<void>;
  snapshot?(): void | Promise<void>;
  restore?(): void | Promise<void>;
  close(): void | Promise<void>;
}

/** A store in a schema of its own; a backup copies both its tables, a restore puts them back. */
function postgresHarness(): Harness {
  const schema = freshSchema();
  const store = new PostgresStateStore(url, { schema });
  const tables = ['legate_suspensions', 'legate_claims'];
  return {
    store: () => store,
    writeRaw: async (s) => {
      await admin.query(
        `INSERT INTO ${schema}.legate_suspensions VALUES ($1, $2, $3, 'suspended', 1, $4, now())
         ON CONFLICT (run_id) DO UPDATE SET suspension_id = $2, status = 'suspended', data = $4`,
        [s.runId, s.id, s.agent, JSON.stringify(s)],
      );
    },
    snapshot: async () => {
      for (const table of tables)
        await admin.query(`DROP TABLE IF EXISTS ${schema}.backup_${table};
          CREATE TABLE ${schema}.backup_${table} AS SELECT * FROM ${schema}.${table}`);
    },
    restore: async () => {
      const { rowCount } = await admin.query('SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = $2', [
        schema,
        'backup_legate_claims',
      ]);
      if (rowCount === 0) return;
      for (const table of tables)
        await admin.query(`DELETE FROM ${schema}.${table};
          INSERT INTO ${schema}.${table} SELECT * FROM ${schema}.backup_${table}`);
    },
    close: () => store.close(),
  };
}

function harness(kind: 'memory' | 'file' | 'sqlite' | 'postgres'): Harness {
  if (kind === 'postgres') return postgresHarness();
  const dir = join(root, `case-${++made}`);
  if (kind === 'memory') {
    const store = new MemoryStateStore();
    return { store: () => store, close: () => undefined };
  }
  if (kind === 'file') {
    const folder = join(dir, 'runs');
    const store = new FileStateStore(folder);
    return {
      store: () => store,
      writeRaw: (s) =>
        writeFileSync(
          join(folder, `${encodeURIComponent(s.runId)}.json`),
          JSON.stringify({ schemaVersion: 1, suspension: s }),
        ),
      snapshot: () => {
        rmSync(join(dir, 'backup'), { recursive: true, force: true });
        cpSync(folder, join(dir, 'backup'), { recursive: true });
      },
      restore: () => {
        if (!existsSync(join(dir, 'backup'))) return;
        rmSync(folder, { recursive: true, force: true });
        cpSync(join(dir, 'backup'), folder, { recursive: true });
      },
      close: () => undefined,
    };
  }
  const file = join(dir, 'runs.db');
  mkdirSync(dir, { recursive: true });
  let store = new SqliteStateStore(file);
  const reopen = (work: () => void) => {
    store.close();
    work();
    store = new SqliteStateStore(file);
  };
  return {
    store: () => store,
    writeRaw: (s) =>
      reopen(() => {
        const db = new Database(file);
        db.prepare("INSERT OR REPLACE INTO legate_suspensions VALUES (?, ?, ?, 'suspended', 1, ?, '')").run(
          s.runId,
          s.id,
          s.agent,
          JSON.stringify(s),
        );
        db.close();
      }),
    snapshot: () => reopen(() => cpSync(file, `${file}.backup`)),
    restore: () =>
      reopen(() => {
        if (!existsSync(`${file}.backup`)) return;
        for (const extra of ['-wal', '-shm']) rmSync(`${file}${extra}`, { force: true });
        cpSync(`${file}.backup`, file);
      }),
    close: () => store.close(),
  };
}

type Op =
  | { op: 'resume'; form: 'list' | 'all' }
  | { op: 'crash'; when: 'before' | 'after' }
  | { op: 'recover'; rerun: boolean }
  | { op: 'resave' | 'writeRaw' | 'remint' | 'snapshot' | 'restore' | 'delete' };

const ops: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('resume' as const), form: fc.constantFrom('list' as const, 'all' as const) }),
  fc.record({ op: fc.constant('crash' as const), when: fc.constantFrom('before' as const, 'after' as const) }),
  fc.record({ op: fc.constant('recover' as const), rerun: fc.boolean() }),
  fc.record({
    op: fc.constantFrom(
      'resave' as const,
      'writeRaw' as const,
      'remint' as const,
      'snapshot' as const,
      'restore' as const,
      'delete' as const,
    ),
  }),
);

const scenario = fc.record({
  kind: fc.constantFrom('memory' as const, 'file' as const, 'sqlite' as const, 'postgres' as const),
  signed: fc.boolean(),
  /** The person's decision on each gated call (one to three), fixed: they decide once. */
  approvals: fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }),
  ops: fc.array(ops, { minLength: 1, maxLength: 10 }),
});

describe('approvals through stores (property)', () => {
  it('no sequence of save, claim, resume, crash, recovery, re-save, raw write, backup and restore runs a denied ' +
    'call, or an approved effect twice', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ kind, signed, approvals, ops: sequence }) => {
        const invocations: { id: string; key: string | undefined }[] = [];
        const applied = new Set<string>();
        let crash: { when: 'before' | 'after'; abort: () => void } | undefined;
        const tool = defineTool({
          name: 'pay',
          description: 'Pays.',
          privileged: true,
          input: { type: 'object', properties: { n: { type: 'number' } } },
          run: (_args, ctx) => {
            if (crash?.when === 'before') crash.abort();
            invocations.push({ id: ctx.toolUseId, key: ctx.idempotencyKey });
            applied.add(ctx.idempotencyKey ?? `unkeyed-${invocations.length}`);
            if (crash?.when === 'after') crash.abort();
            return 'paid';
          },
        });
        const agent = (first: boolean) =>
          new Agent({
            name: 'payer',
            model: 'm',
            tools: [tool],
            transport: new ScriptedTransport([
              ...(first
                ? [reply.toolUses(approvals.map((_a, n) => ({ name: 'pay', input: { n }, id: `call_${n}` })))]
                : []),
              reply.text('done'),
            ]),
            approvalRequired: () => true,
            ...(signed ? { suspensionKey: KEY } : {}),
          });
        const decisionOf = new Map(approvals.map((approve, n) => [`call_${n}`, approve]));
        const h = harness(kind);
        let restored = false;
        let reran = false;
        let forged = false;
        let continued = 0;
        try {
          const { suspension } = await agent(true).run('pay');
          await h.store().save(suspension!);
          const decisions = suspension!.pending.map((p) => ({
            id: p.id,
            inputDigest: p.inputDigest,
            approve: decisionOf.get(p.id)!,
          }));
          const uniform = approvals.every((a) => a === approvals[0]);
          for (const step of sequence) {
            const store = h.store();
            const loaded = await store.load(suspension!.runId);
            try {
              if (step.op === 'resume' || step.op === 'crash') {
                if (loaded === undefined) continue;
                const controller = new AbortController();
                crash =
                  step.op === 'crash'
                    ? { when: step.when, abort: () => controller.abort(new Error('killed')) }
                    : undefined;
                const approve = step.op === 'resume' && step.form === 'all' && uniform ? approvals[0]! : decisions;
                await agent(false).resume(loaded, { approve, store, signal: controller.signal });
                continued++;
              } else if (step.op === 'recover') {
                if (loaded === undefined) continue;
                crash = undefined;
                const before = invocations.length;
                await agent(false).recover(loaded, { store, staleAfterMs: 0, rerun: step.rerun ? ['pay'] : [] });
                if (step.rerun && invocations.length > before) reran = true;
                continued++;
              } else if (step.op === 'resave') {
                const claimed = (await store.claimOf(suspension!.id)) !== undefined;
                const saved = await store.save(suspension!).then(
                  () => true,
                  (e: unknown) => (e instanceof StoreError && e.code === 'already_claimed' ? false : Promise.reject(e)),
                );
                expect(saved).toBe(!claimed);
              } else if (step.op === 'writeRaw') await h.writeRaw?.(suspension!);
              else if (step.op === 'remint' && h.writeRaw !== undefined) {
                // A spent suspension written back under a new id: a signed one no longer verifies.
                await h.writeRaw({ ...suspension!, id: randomUUID() });
                if (!signed) forged = true;
              } else if (step.op === 'snapshot') await h.snapshot?.();
              else if (step.op === 'restore' && h.restore !== undefined) {
                await h.restore();
                restored = true;
              } else if (step.op === 'delete') await store.delete(suspension!.runId);
            } catch (error) {
              // Refusals, and the simulated death, are expected; anything else is a failure.
              if (!(error instanceof SuspensionError) && !(error instanceof Error && error.message === 'killed'))
                throw error;
            } finally {
              crash = undefined;
            }
          }
        } finally {
          await h.close();
        }
        for (const { id } of invocations) expect(decisionOf.get(id), `denied call ${id} ran`).toBe(true);
        for (const id of decisionOf.keys()) {
          const runs = invocations.filter((i) => i.id === id);
          expect(new Set(runs.map((r) => r.key)).size, `${id} ran under more than one key`).toBeLessThanOrEqual(1);
          expect(runs.every((r) => r.key !== undefined)).toBe(true);
          // Without a restore of the whole store, a forged unsigned suspension, or a rerun the caller allowed, the tool
          // itself ran at most once.
          if (!restored && !reran && !forged)
            expect(runs.length, `${id} ran ${runs.length} times`).toBeLessThanOrEqual(1);
        }
        // Keyed, an approved effect is applied at most once: a restore from backup, and an unsigned suspension
        // re-minted by hand, included.
        expect(applied.size).toBeLessThanOrEqual(approvals.filter(Boolean).length);
        if (!restored && !forged) expect(continued).toBeLessThanOrEqual(1);
      }),
      { numRuns: 100 },
    );
  }, 300_000);
});
