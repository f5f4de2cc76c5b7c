import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { captureIo as capture } from '../support/captureIo.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();

/** A copy of the corpus in a temporary project, whose config points back at this repository's agents. */
function project(): string {
  const dir = tempDir();
  cpSync('trajectories', join(dir, 'trajectories'), { recursive: true });
  const root = resolve('.');
  writeFileSync(
    join(dir, 'legate.config.ts'),
    `import { defineConfig } from '${root}/src/index.ts';\n` +
      `import base from '${root}/legate.config.ts';\n` +
      `export default defineConfig({ agents: base.agents });\n`,
  );
  return dir;
}

describe('legate replay', () => {
  it('passes on the shipped corpus, one verdict line per file and a summary', async () => {
    const io = capture();
    expect(await main(['replay', '--workers', '1'], io)).toBe(0);
    const files = io.stdout.filter((line) => line.startsWith('✓ trajectories/')).length;
    expect(files).toBeGreaterThanOrEqual(13);
    expect(io.stdout.at(-1)).toBe(`${files} replayed: ${files} passed, 0 failed`);
    // Each verdict line carries the run's safety facts: what was blocked and why, taint, suspension.
    const line = (name: string) => io.stdout.find((text) => text.startsWith(`✓ trajectories/${name} `));
    expect(line('zero-trust.yaml')).toBe(
      `✓ trajectories/zero-trust.yaml  3 turns, end_turn; blocked send_payment (taint from fetch_page); ` +
        'tainted by fetch_page',
    );
    expect(line('approval-denied.yaml')).toMatch(/blocked \w+ \(approval\)/);
    expect(line('tool-loop.yaml')).toMatch(/^✓ trajectories\/tool-loop\.yaml {2}\d+ turns?, end_turn$/);
  }, 60_000);

  it('exits 1 and names the turn and path when one file no longer matches', async () => {
    const dir = project();
    const file = join(dir, 'trajectories/tool-failure.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('failed with RangeError', 'failed with TypeError'));
    const io = capture(dir);
    expect(await main(['replay', '--workers', '1'], io)).toBe(1);
    expect(io.text()).toContain('✗ trajectories/tool-failure.yaml');
    expect(io.text()).toContain('the request for turn 2 differs from the recording at messages[2].content[0].content');
    expect(io.stdout.at(-1)).toMatch(/^(\d+) replayed: \d+ passed, 1 failed$/);
  }, 60_000);

  it('with --bail, stops at the first file that fails and says how many were not run', async () => {
    const dir = project();
    for (const name of ['approval-denied.yaml', 'tool-failure.yaml']) {
      const file = join(dir, 'trajectories', name);
      writeFileSync(file, readFileSync(file, 'utf8').replace(/^name: .*$/m, 'name: [not, a, name]'));
    }
    const io = capture(dir);
    expect(await main(['replay', '--workers', '1', '--bail'], io)).toBe(1);
    const verdicts = io.stdout.filter((line) => /^[✓✗] /.test(line));
    // Files run in name order: approval-denied.yaml is first, and nothing after it runs.
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0]).toMatch(/^✗ trajectories\/approval-denied\.yaml/);
    expect(io.stdout.at(-1)).toMatch(/^1 replayed: 0 passed, 1 failed, (\d+) not run \(--bail\)$/);
  }, 60_000);

  it('says which agents the config exports when a file names another', async () => {
    const dir = project();
    const file = join(dir, 'trajectories/refusal.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('agent: calculator', 'agent: accountant'));
    const io = capture(dir);
    expect(await main(['replay', 'trajectories/refusal.yaml'], io)).toBe(1);
    expect(io.text()).toContain(
      `trajectories/refusal.yaml names agent 'accountant', which legate.config.ts does not export; it exports ` +
        `'calculator', 'order_desk', 'assistant', 'provenance_assistant', 'approving_assistant', ` +
        `'searching_assistant', 'support_desk', 'support_desk_shadow', 'front_desk', 'travel', 'triage', 'planner', ` +
        `'treasurer'.`,
    );
  });

  it('says a file recorded at the HTTP boundary replays in its own test, not by legate replay', async () => {
    const dir = project();
    const file = join(dir, 'trajectories/refusal.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^agent: /m, 'boundary: http\nagent: '));
    const io = capture(dir);
    expect(await main(['replay', 'trajectories/refusal.yaml'], io)).toBe(1);
    expect(io.text()).toContain(
      'trajectories/refusal.yaml was recorded at the HTTP boundary (legate/intercept): no agent of ' +
        'legate.config.ts made it, so it replays in the test that recorded it',
    );
  });

  it('explains a missing config in one line, exit 2', async () => {
    const io = capture(tempDir());
    expect(await main(['replay'], io)).toBe(2);
    expect(io.stderr).toEqual([expect.stringContaining('legate.config.* was not found')]);
    expect(io.stderr[0]).toContain(
      `Write one that exports your agent factories: import { defineConfig } from 'legate';`,
    );
  });

  it('refuses an unknown match level', async () => {
    const io = capture();
    expect(await main(['replay', '--match', 'loose'], io)).toBe(2);
    expect(io.text()).toContain('--match must be one of exact, structure, shape');
  });
});

describe('legate validate', () => {
  it('accepts the corpus and reports a corrupted file as file:line:column', async () => {
    const dir = project();
    const file = join(dir, 'trajectories/max-tokens.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('stopReason: max_tokens', 'stopReason: [max_tokens'));
    const io = capture(dir);
    expect(await main(['validate'], io)).toBe(1);
    expect(io.stderr.join('\n')).toMatch(/^trajectories\/max-tokens\.yaml:\d+:\d+: this is not valid YAML/);
    expect(io.stdout.at(-1)).toMatch(/^\d+ checked: \d+ valid, 1 invalid$/);
  });
});

describe('legate show and diff', () => {
  it('shows a trajectory as a timeline', async () => {
    const io = capture();
    expect(await main(['show', 'trajectories/parallel-tool-calls.yaml'], io)).toBe(0);
    const text = io.text();
    expect(text).toContain('→ add {"left":12,"right":30}');
    expect(text).toContain('✓ ok {"quotient":42}');
    expect(text).toContain('assistant: Both are 42.');
  });

  it("ends with the run's taint, when untrusted content entered it, and says nothing of taint otherwise", async () => {
    const tainted = capture();
    expect(await main(['show', 'trajectories/zero-trust.yaml'], tainted)).toBe(0);
    expect(tainted.text().split('\n').at(-1)).toMatch(/^end_turn · \d+ turns · .* · tainted by fetch_page$/);
    const clean = capture();
    expect(await main(['show', 'trajectories/parallel-tool-calls.yaml'], clean)).toBe(0);
    expect(clean.text()).not.toContain('tainted');
  });

  it('shows a missing file plainly, exit 2', async () => {
    const io = capture();
    expect(await main(['show', 'trajectories/nope.yaml'], io)).toBe(2);
    expect(io.stderr).toEqual([
      'trajectories/nope.yaml: does not exist; check the path (a relative one is resolved from the working folder)',
    ]);
  });

  it('diffs two trajectories turn by turn, exiting 1 when they differ and 0 when they match', async () => {
    const io = capture();
    expect(await main(['diff', 'trajectories/refusal.yaml', 'trajectories/max-tokens.yaml'], io)).toBe(1);
    expect(io.text()).toContain('turn 1 at content[0].text');
    const same = capture();
    expect(await main(['diff', 'trajectories/refusal.yaml', 'trajectories/refusal.yaml'], same)).toBe(0);
  });
});

describe('legate show on safety and composition trajectories', () => {
  it("shows each turn's agent, the rule and source of a refusal, a person's decision, and the handoffs", async () => {
    const io = capture();
    expect(await main(['show', 'trajectories/taint-crosses-handoff.yaml'], io)).toBe(0);
    const text = io.text();
    expect(text).toContain('[billing]');
    expect(text).toContain('✗ blocked (taint, source read_attachment)');
    expect(text).toContain('handoff in turn 2: triage → billing (refund request with a receipt)');
    const denied = capture();
    await main(['show', 'trajectories/approval-denied.yaml'], denied);
    expect(denied.text()).toContain('⏸ denied by a person: Globex is not an approved supplier.');
  });

  it('shows the argument a provenance refusal could not trace, its value whole, and where it was found', async () => {
    const io = capture();
    expect(await main(['show', 'trajectories/provenance-traced.yaml'], io)).toBe(0);
    const lines = io.text().split('\n');
    const refusal = lines.findIndex((line) => line.includes('✗ blocked (taint, source fetch_page)'));
    expect(lines[refusal + 1]!.trim()).toBe('untraced to "99-1234-5678" · found only in fetch_page');
    expect(lines.filter((line) => line.includes('untraced'))).toHaveLength(1); // the traced payment ran
  });
});
