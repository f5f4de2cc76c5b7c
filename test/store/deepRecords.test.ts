import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  FileStateStore,
  MemoryStateStore,
  ScriptedTransport,
  defineTool,
  reply,
  type StateStore,
} from '../../src/index.js';
import { SqliteStateStore } from '../../src/store/sqlite.js';
import { jsonText } from '../../src/json/jsonText.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();

/** `{ a: [{ a: [ ... ] }] }`, `depth` levels deep, built without recursion. */
function nested(depth: number): Record<string, unknown> {
  let value: unknown = 'leaf';
  for (let i = 1; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return { a: value };
}

/** A run suspended on a call that needs approval, with a call 20,000 deep (refused by the binder) in the same batch. */
async function deepSuspension() {
  const keep = defineTool({
    name: 'keep',
    description: 'Keeps.',
    input: { type: 'object', properties: { a: { type: 'string' } } },
    run: () => 'kept',
  });
  const pay = defineTool({
    name: 'pay',
    description: 'Pays.',
    privileged: true,
    input: { type: 'object', properties: { n: { type: 'number' } } },
    run: () => 'paid',
  });
  const agent = new Agent({
    name: 'payer',
    model: 'm',
    tools: [keep, pay],
    transport: new ScriptedTransport([
      reply.toolUses([
        { name: 'keep', input: nested(20_000), id: 'deep' },
        { name: 'pay', input: { n: 1 }, id: 'pay' },
      ]),
    ]),
    approvalRequired: (tool) => tool.name === 'pay',
  });
  return (await agent.run('go')).suspension!;
}

const stores: [string, () => StateStore][] = [
  ['MemoryStateStore', () => new MemoryStateStore({ redactions: [{ pattern: 'leaf' }] })],
  ['FileStateStore', () => new FileStateStore(join(tempDir(), 'runs'), { redactions: [{ pattern: 'leaf' }] })],
  ['SqliteStateStore', () => new SqliteStateStore(join(tempDir(), 'runs.db'), { redactions: [{ pattern: 'leaf' }] })],
];

describe('stores keep records of any depth', () => {
  it.each(stores)(
    '%s saves and loads a suspension holding a tool_use block 20,000 deep, redacted',
    async (_name, create) => {
      const suspension = await deepSuspension();
      const store = create();
      await store.save(suspension);
      const loaded = await store.load(suspension.runId);
      const expected = jsonText(suspension)!.replaceAll('leaf', '[REDACTED]');
      expect(expected).not.toBe(jsonText(suspension));
      expect(jsonText(loaded)).toBe(expected);
      if (store instanceof SqliteStateStore) store.close();
    },
  );

  it('FileStateStore writes compact JSON: a record is as large as its JSON, not the square of its depth', async () => {
    const suspension = await deepSuspension();
    const store = new FileStateStore(join(tempDir(), 'runs'));
    await store.save(suspension);
    const text = readFileSync(join(store.directory, `${encodeURIComponent(suspension.runId)}.json`), 'utf8');
    expect(text).toBe(jsonText({ schemaVersion: 1, suspension }));
  });
});
