import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { Agent, ScriptedTransport, defineTool, reply, runTrajectory, type Transport } from '../../src/index.js';
import { captureIo as capture } from '../support/captureIo.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();

describe('legate show and diff on a recording with a tool input 20,000 deep', () => {
  it('shows the call refused as too_deep, with a preview of its input, and diffs the file with itself', async () => {
    let value: unknown = 'leaf';
    for (let i = 1; i < 20_000; i++) value = i % 2 === 0 ? [value] : { a: value };
    const keep = defineTool({
      name: 'keep',
      description: 'Keeps.',
      input: { type: 'object', properties: { a: { type: 'string' } } },
      run: () => 'kept',
    });
    const file = join(tempDir(), 'deep.yaml');
    await runTrajectory({
      file,
      mode: 'record',
      input: 'Keep it.',
      agent: (transport: Transport) => new Agent({ name: 'keeper', model: 'm', tools: [keep], transport }),
      transport: () => new ScriptedTransport([reply.toolUse('keep', { a: value }), reply.text('Kept.')]),
    });
    const io = capture();
    expect(await main(['show', file], io)).toBe(0);
    expect(io.text()).toContain('→ keep {"a":{"a":[{"a":[');
    expect(io.text()).toMatch(/✗ invalid \(too_deep, argument a\)/);
    const diff = capture();
    expect(await main(['diff', file, file], diff)).toBe(0);
  });
});
