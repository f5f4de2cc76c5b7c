import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.js';
import { captureIo } from '../support/captureIo.js';
import { readmeSnippets } from '../support/readmeSnippets.js';
import { runSnippet } from '../support/snippetSource.js';

// docs/evaluation.md, "Fork at a turn": its examples run against this repository's source, on a copy of
// zero-trust.yaml in a folder of their own (never trajectories/), with the payments example's agent.
const root = resolve('.');
const folder = join(root, '.legate-fork-doc');
const doc = readFileSync('docs/evaluation.md', 'utf8');
const section = doc.slice(doc.indexOf('## Fork at a turn'));
const parent = join(folder, 'zero-trust.yaml');
const fork = join(folder, 'zero-trust-turn-3.yaml');

afterAll(() => rmSync(folder, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

/** Runs one of the section's examples, under a name of its own, with its paths pointed into the folder. */
function run(name: string, as = name): Promise<unknown[][]> {
  const code = readmeSnippets(section)
    .find((snippet) => snippet.name === name)!
    .code.replaceAll("'trajectories/zero-trust.yaml'", JSON.stringify(parent))
    .replaceAll("'trajectories/zero-trust-turn-3.yaml'", JSON.stringify(fork))
    .replaceAll("'./agent.js'", JSON.stringify(join(root, 'examples/payments/agent.ts')));
  return runSnippet(folder, as, code);
}

describe('docs/evaluation.md, Fork at a turn', () => {
  it('forks, then replays the fork; its replay reports the parent changed in a turn forked', async () => {
    // The mode nothing sets: auto.
    vi.stubEnv('CI', '');
    vi.stubEnv('LEGATE_MODE', '');
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    copyFileSync('trajectories/zero-trust.yaml', parent);
    expect(section).toContain('The first run prints `record 3 2`');
    expect(await run('fork-code')).toEqual([['record', 3, 2]]);
    expect(section).toContain('Run again, it prints `replay 3 2`');
    expect(await run('fork-code', 'fork-code-again')).toEqual([['replay', 3, 2]]);

    expect(await run('fork-replay')).toEqual([['same']]);
    writeFileSync(parent, readFileSync(parent, 'utf8').replace('Let me read the invoice.', 'Reading it.'));
    const printed = await run('fork-replay', 'fork-replay-changed');
    expect(printed).toEqual([[expect.any(String)], ['changed']]);
    const note = `${fork} is a fork of ${parent} at turn 2, and ${parent} has changed since the fork: `;
    expect(printed[0]![0]).toMatch(new RegExp(`^${note.replaceAll(/[.$]/g, '\\$&')}`));
    expect(section).toContain('then `changed`; with the parent as it was, only `same`.');
  });

  it('gives the command line `legate fork` takes', async () => {
    const command = 'npx legate fork trajectories/zero-trust.yaml --at 2 --out trajectories/zero-trust-turn-3.yaml';
    expect(section).toContain(command);
    const io = captureIo();
    expect(await main(['fork', '--help'], io)).toBe(0);
    expect(io.stdout[0]).toMatch(/^legate fork <file> --at N --out <file> \[--sample k\] \[--config file\]/);
  });
});
