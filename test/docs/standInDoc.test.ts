import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { builtLegate } from '../support/builtPackage.js';
import { readmeSnippets } from '../support/readmeSnippets.js';
import { runSnippet } from '../support/snippetSource.js';
import { createLoop, streamLoop } from '../intercept/toolLoops.js';

// docs/stand-in.md: its code example run against this repository's source, and `legate stand-in` run as a user
// runs it (the built command, a process of its own) on the doc's script module and on a committed trajectory.
const root = resolve('.');
const folder = join(root, '.legate-stand-in-doc');
const doc = readFileSync('docs/stand-in.md', 'utf8');
const snippets = readmeSnippets(doc);
const snippet = (name: string) => snippets.find((s) => s.name === name)!.code;

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill();
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/**
 * Starts `legate stand-in args` and resolves with its URL once it prints it, and the whole of what it printed
 * once it exits. Waits on its output, never on time.
 */
async function standIn(args: string[]) {
  const child = spawn(process.execPath, [await builtLegate(), 'stand-in', ...args], {
    cwd: root,
    env: { ...process.env, NO_COLOR: '1', LEGATE_DEBUG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
  });
  child.stderr!.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  const exited = once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }));
  const url = await new Promise<string>((resolveUrl, reject) => {
    child.stdout!.on('data', () => {
      if (stdout.includes('\n')) resolveUrl(stdout.split('\n')[0]!);
    });
    void exited.then((ended) => reject(new Error(`legate stand-in exited (${ended.code}): ${ended.stderr}`)));
  });
  return { url, exited, stop: () => child.kill('SIGTERM') };
}

describe('docs/stand-in.md', () => {
  it('runs its code example, which prints what the stand-in answered and how many requests it saw', async () => {
    mkdirSync(folder, { recursive: true });
    const printed = await runSnippet(folder, 'stand-in-code', snippet('stand-in-code'));
    expect(printed).toEqual([[[{ type: 'text', text: 'Hello from the stand-in.' }]], [1]]);
  });

  it('serves its script module from the command line: the URL on one line, then until SIGTERM', async () => {
    mkdirSync(folder, { recursive: true });
    // The module imports 'legate' as installed: the built package.
    const module = snippet('stand-in-script').replace("from 'legate'", `from '${resolve('dist/src/index.js')}'`);
    writeFileSync(join(folder, 'model.ts'), module);
    expect(doc).toContain('npx legate stand-in model.ts --port 8787');
    const served = await standIn([join('.legate-stand-in-doc', 'model.ts'), '--port', '0']);
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const outcome = await createLoop({
      baseURL: served.url,
      apiKey: 'stand-in',
      model: 'claude-haiku-4-5',
      prompt: 'What is invoice INV-42 for?',
      tools: [{ name: 'read_invoice', input_schema: { type: 'object', properties: { id: { type: 'string' } } } }],
      run: () => 'INV-42: 120 EUR, due 2026-12-30',
    });
    expect(outcome).toEqual({
      text: 'Invoice INV-42 is for 120 EUR, due on the 30th.',
      calls: [{ name: 'read_invoice', input: { id: 'INV-42' } }],
    });
    served.stop();
    expect(await served.exited).toEqual({ code: 0, stdout: `${served.url}\n`, stderr: '' });
  });

  it('serves a committed trajectory from the command line, streamed, and refuses past its end', async () => {
    const served = await standIn(['trajectories/tool-loop.yaml']);
    const setup = {
      baseURL: served.url,
      apiKey: 'stand-in',
      model: 'claude-haiku-4-5',
      prompt: 'Where is my order A-1001?',
      tools: [{ name: 'lookup_order', input_schema: { type: 'object' as const } }],
      run: () => '{"status":"shipped"}',
    };
    expect((await streamLoop(setup)).text).toBe('Your order A-1001 (a kettle and a tea tin) has shipped.');
    const refused = await createLoop(setup).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400, error: { error: { type: 'invalid_request_error' } } });
    served.stop();
    expect((await served.exited).code).toBe(0);
  });
});
