import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { captureIo } from '../support/captureIo.js';

// Issue 12: every verb refuses an option it does not know, in one line, with exit code 2.
const VERBS = ['replay', 'show', 'diff', 'validate', 'fuzz', 'demo'];

describe('every legate verb, given an option it does not know', () => {
  it.each(VERBS)('%s: one line naming the option and where to look, exit 2, nothing run', async (verb) => {
    const io = captureIo();
    expect(await main([verb, '--bogus'], io)).toBe(2);
    expect(io.stdout).toEqual([]);
    expect(io.stderr).toEqual([
      `legate ${verb}: unknown option '--bogus'. Run 'legate ${verb} --help' for its options.`,
    ]);
  });

  it('demo takes no arguments: an extra one is a usage error too', async () => {
    const io = captureIo();
    expect(await main(['demo', 'now'], io)).toBe(2);
    expect(io.stdout).toEqual([]);
    expect(io.stderr).toHaveLength(1);
    expect(io.stderr[0]).toMatch(/^legate demo: .*'now'.* Run 'legate demo --help' for its options\.$/);
  });
});
