import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { captureIo } from '../support/captureIo.js';

describe('legate fuzz', () => {
  it('fuzzes the tools and agents of the config, prints the table, and exits 0 with no findings', async () => {
    const io = captureIo();
    expect(await main(['fuzz', 'legate.config.ts', '--runs', '40', '--seed', '9'], io)).toBe(0);
    const text = io.text();
    expect(text).toMatch(/^target\s+kind\s+cases\s+failures\s+cases\/s$/m);
    expect(text).toMatch(/^send_payment\s+tool\s+50\s+0\s+[\d,]+$/m);
    expect(text).toMatch(/^assistant\s+agent\s+8\s+0\s+[\d,]+$/m);
    expect(text).toMatch(/\d+ targets, \d+ cases: no findings/);
  }, 60_000);

  it('exits 1 on a finding, with the seed, the path and the shrunk counterexample', async () => {
    const io = captureIo();
    expect(await main(['fuzz', 'test/support/brokenFuzzTargets.ts', '--runs', '300', '--seed', '2'], io)).toBe(1);
    const text = io.text();
    expect(text).toMatch(/^coercing\s+tool\s+\d+\s+1\s+/m);
    expect(text).toMatch(/^sound\s+tool\s+\d+\s+0\s+/m);
    expect(text).toContain(`✗ coercing: an input broken by wrong_type at argument 'count' was accepted`);
    expect(text).toMatch(/reproduce: seed 2, path [\d:]+/);
    expect(text).toContain('shrunk counterexample: {"input":{"count":');
  }, 60_000);

  it('says what it needs when given nothing to fuzz', async () => {
    const io = captureIo();
    expect(await main(['fuzz'], io)).toBe(2);
    expect(io.text()).toContain('give a module to fuzz');
  });
});
