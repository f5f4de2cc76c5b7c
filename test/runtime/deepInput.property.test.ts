import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  Agent,
  assertThat,
  FileStateStore,
  MemoryStateStore,
  ScriptedTransport,
  defineTool,
  loadTrajectory,
  reply,
  runTrajectory,
  type AgentResult,
  type Redaction,
  type StateStore,
  type Transport,
} from '../../src/index.js';
import { SqliteStateStore } from '../../src/store/sqlite.js';
import { jsonText } from '../../src/json/jsonText.js';
import { MAX_INPUT_DEPTH } from '../../src/tools/schema/inputDepth.js';

/**
 * End to end: a model sends a tool input nested up to 20,000 levels deep (arrays, objects, or
 * both in turn). Whatever the depth, the run finishes, the call is refused with `too_deep` past
 * the binder's limit, a recording (with redactions and secrets configured) is written and
 * replays, and a suspension holding the deep call beside a pending approval is saved to every
 * store, loaded, resumed and recovered, without a RangeError anywhere.
 */

const root = mkdtempSync(join(tmpdir(), 'legate-deep-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let serial = 0;
const freshDir = (): string => mkdtempSync(join(root, `${serial++}-`));

type Kind = 'array' | 'object' | 'mixed';

function caughtError(action: () => unknown): Error | undefined {
  try {
    action();
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

/**
 * A card number at every object level, redacted by path: long enough that no token count or id can hold it by chance.
 */
const CARD = '4111111111111111';

/** A tool input (an object) whose total depth is `depth`, built without recursion. */
function deepInput(depth: number, kind: Kind): Record<string, unknown> {
  let value: unknown = 'sk-test-0123456789 leaf';
  for (let i = 1; i < depth; i++)
    value = kind === 'array' || (kind === 'mixed' && i % 2 === 0) ? [value] : { card: CARD, k: value };
  return { a: value };
}

/**
 * A schema describing {@link deepInput}'s shape down to the binder's limit, so whatever is refused is refused for its
 * depth alone.
 */
function schemaFor(depth: number, kind: Kind): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 1; i < Math.min(depth, MAX_INPUT_DEPTH); i++) {
    schema =
      kind === 'array' || (kind === 'mixed' && i % 2 === 0)
        ? { type: 'array', items: schema }
        : { type: 'object', properties: { card: { type: 'string' }, k: schema }, required: ['card', 'k'] };
  }
  return { type: 'object', properties: { a: schema }, required: ['a'] };
}

const keepTool = (depth: number, kind: Kind) =>
  defineTool({
    name: 'keep',
    description: 'Keeps a document.',
    input: schemaFor(depth, kind) as never,
    run: () => 'kept',
  });

const depths = fc.oneof(
  fc.integer({ min: 1, max: MAX_INPUT_DEPTH + 2 }),
  fc.integer({ min: MAX_INPUT_DEPTH + 1, max: 20_000 }),
  fc.constantFrom(MAX_INPUT_DEPTH, MAX_INPUT_DEPTH + 1, 20_000),
);
const kinds = fc.constantFrom<Kind>('array', 'object', 'mixed');

const redactions: Redaction[] = [{ pattern: /sk-test-\d+/ }, { path: 'card' }, { pattern: 'hunter2' }];
const secrets = ['correct-horse-battery'];

function expectRefusedPastLimit(result: AgentResult, depth: number): void {
  const call = result.toolCalls.find((c) => c.name === 'keep')!;
  if (depth > MAX_INPUT_DEPTH) {
    expect(call.outcome).toBe('invalid');
    expect((call.error as { code?: string }).code).toBe('too_deep');
  } else expect(call.outcome).toBe('ok');
}

describe('a tool input of any depth, end to end (property)', () => {
  it('is recorded with redactions and secrets configured, and the recording replays', async () => {
    await fc.assert(
      fc.asyncProperty(depths, kinds, async (depth, kind) => {
        const file = join(freshDir(), 'deep.yaml');
        const keep = keepTool(depth, kind);
        const agent = (transport: Transport) =>
          new Agent({ name: 'keeper', model: 'claude-haiku-5-5', tools: [keep], transport });
        const recorded = await runTrajectory({
          file,
          agent,
          input: 'Keep it.',
          mode: 'record',
          redactions,
          secrets,
          report: false,
          transport: () => new ScriptedTransport([reply.toolUse('keep', deepInput(depth, kind)), reply.text('Kept.')]),
        });
        expect(existsSync(file)).toBe(true);
        expect(readFileSync(file, 'utf8')).not.toMatch(/sk-test-|4111111111111111/);
        expectRefusedPastLimit(recorded.result, depth);
        expect(loadTrajectory(file).turns).toHaveLength(2);
        // The assertions read the run too: a failing one is an AssertionError, never a RangeError.
        if (depth > MAX_INPUT_DEPTH) assertThat(recorded.result).invalidArgument('keep', { code: 'too_deep' });
        const wrong = caughtError(() => assertThat(recorded.result).calledTool('keep', { a: 'other' }));
        expect(wrong?.name).toBe('AssertionError');
        const replayed = await runTrajectory({ file, agent, mode: 'replay', redactions, secrets });
        expect(replayed.result.text).toBe('Kept.');
        expect(replayed.result.toolCalls.map((c) => c.outcome)).toEqual(
          recorded.result.toolCalls.map((c) => c.outcome),
        );
      }),
      { numRuns: 12 },
    );
  });

  it('beside a call that needs approval: suspended, saved to every store, loaded, resumed and recovered', async () => {
    await fc.assert(
      fc.asyncProperty(depths, kinds, fc.constantFrom('memory', 'file', 'sqlite'), async (depth, kind, storeKind) => {
        const keep = keepTool(depth, kind);
        let paid = 0;
        let crash: (() => void) | undefined;
        const pay = defineTool({
          name: 'pay',
          description: 'Pays.',
          privileged: true,
          input: { type: 'object', properties: { n: { type: 'number' } } },
          run: () => {
            paid++;
            crash?.();
            return 'paid';
          },
        });
        const agent = (first: boolean) =>
          new Agent({
            name: 'payer',
            model: 'm',
            tools: [keep, pay],
            transport: new ScriptedTransport([
              ...(first
                ? [
                    reply.toolUses([
                      { name: 'keep', input: deepInput(depth, kind), id: 'deep' },
                      { name: 'pay', input: { n: 1 }, id: 'pay' },
                    ]),
                  ]
                : []),
              reply.text('done'),
            ]),
            approvalRequired: (tool) => tool.name === 'pay',
          });
        const options = { redactions, secrets };
        const store: StateStore =
          storeKind === 'memory'
            ? new MemoryStateStore(options)
            : storeKind === 'file'
              ? new FileStateStore(freshDir(), options)
              : new SqliteStateStore(join(freshDir(), 's.db'), options);
        try {
          const first = await agent(true).run('pay and keep');
          expect(first.stopReason).toBe('suspended');
          await store.save(first.suspension!);
          const loaded = (await store.load(first.suspension!.runId))!;
          expect(loaded.id).toBe(first.suspension!.id);
          expect(jsonText(loaded)).not.toMatch(/sk-test-|4111111111111111/);

          // A resume whose process dies inside the approved call, then its recovery.
          const controller = new AbortController();
          crash = () => controller.abort(new Error('killed'));
          await expect(
            agent(false).resume(loaded, { approve: true, store, signal: controller.signal }),
          ).rejects.toThrow('killed');
          crash = undefined;
          expect(await store.list({ status: 'claimed' })).toEqual([first.suspension!.runId]);
          const recovered = await agent(false).recover(loaded, { store, staleAfterMs: 0, rerun: ['pay'] });
          expect(recovered.text).toBe('done');
          expectRefusedPastLimit(recovered, depth);
          expect(paid).toBe(2);
        } finally {
          if (store instanceof SqliteStateStore) store.close();
        }
      }),
      { numRuns: 15 },
    );
  });
});
