import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { captureIo } from '../support/captureIo.js';
import { useTempDir } from '../support/tempDir.js';

// legate stand-in's own refusals, before it serves anything (its runs are in test/docs/standInDoc.test.ts).

const tempDir = useTempDir();

describe('legate stand-in refuses what it cannot serve', () => {
  it.each([
    [[], /^legate stand-in: give one trajectory \(\.yaml\) or script module \(\.js, \.mjs, \.ts\) to serve, e\.g\./],
    [['a.yaml', 'b.yaml'], /give one trajectory/],
    [['notes.txt'], /to serve, not "notes\.txt", e\.g\. legate stand-in trajectories\/tool-loop\.yaml$/],
    [
      ['--port', 'x', 'a.yaml'],
      /--port must be a whole number from 0 to 65535 \(0: any free port\), but it was "x"\.$/,
    ],
  ])('legate stand-in %j: one line, exit 2', async (args, says) => {
    const io = captureIo(tempDir());
    expect(await main(['stand-in', ...args], io)).toBe(2);
    expect(io.stderr).toHaveLength(1);
    expect(io.stderr[0]).toMatch(says);
    expect(io.stdout).toEqual([]);
  });

  it('says what a script module must default-export when its default export is not a list', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'model.mjs'), "export default { text: 'not a list' };\n");
    const io = captureIo(dir);
    expect(await main(['stand-in', 'model.mjs'], io)).toBe(2);
    expect(io.stderr).toEqual([
      'legate stand-in: model.mjs must default-export the steps to serve, a list ' +
        "(export default [reply.text('Hello')]), " +
        'but its default export is the object {"text":"not a list"}.',
    ]);
  });
});
