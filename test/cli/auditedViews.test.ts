import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { loadTrajectory, saveTrajectory } from '../../src/trajectory/trajectoryFile.js';
import { captureIo } from '../support/captureIo.js';
import { elementsOf, select, type Element } from '../support/htmlElements.js';
import { useTempDir } from '../support/tempDir.js';
import { PAGE, PROMPT, recordPayment } from './interceptedPayment.js';

// Issue 34: `legate show` and `legate view` audit a file recorded at the HTTP boundary (whose tools carry no
// postures) by the declarations `legate audit` takes, the config's `audit` section or its flags, so that its taint
// path shows as a legate run's does; and a user message of content blocks is shown as text.

const tempDir = useTempDir();
const FLAGS = ['--untrusted', 'fetch_page', '--privileged', 'send_payment'];
const CONFIG = "export default { agents: {}, audit: { untrusted: ['fetch_page'], privileged: ['send_payment'] } };\n";

/** A folder holding the recording (`pay.yaml`), and a config declaring its tools when `config` says so. */
async function project(config: boolean): Promise<string> {
  const dir = tempDir();
  await recordPayment(dir);
  if (config) writeFileSync(join(dir, 'legate.config.mjs'), CONFIG);
  return dir;
}

async function show(dir: string, args: string[]) {
  const io = captureIo(dir);
  const code = await main(['show', ...args], io);
  return { code, out: io.stdout.join('\n'), err: io.stderr };
}

async function view(dir: string, args: string[]) {
  const io = captureIo(dir);
  const code = await main(['view', ...args, '--out', 'page.html'], io);
  const page = existsSync(join(dir, 'page.html')) ? readFileSync(join(dir, 'page.html'), 'utf8') : '';
  return { code, err: io.stderr, page, elements: elementsOf(page) };
}

const call = (elements: Element[], id: string) => select(elements, 'details', { 'data-call-id': id })[0]!;

const TAINTED = '✗ audit: the guard would have blocked it (taint), tainted by fetch_page (toolu_01_fetch, turn 1)';

describe('legate show of a file recorded at the HTTP boundary', () => {
  it.each([
    ['the config', true, []],
    ['the flags', false, FLAGS],
  ])("marks the taint path by the audit's declarations from %s", async (_, config, flags) => {
    const dir = await project(config);
    const { code, out, err } = await show(dir, ['pay.yaml', ...flags]);
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const lines = out.split('\n');
    const fetch = lines.findIndex((line) => line.includes('→ fetch_page'));
    const pay = lines.findIndex((line) => line.includes('→ send_payment'));
    expect(lines[fetch + 1]!.trim()).toBe(`✓ ok ${PAGE}`);
    expect(lines[fetch + 2]!.trim()).toBe('⚑ audit: untrusted content enters the conversation here');
    expect(lines[pay + 1]!.trim()).toBe('✓ ok paid');
    expect(lines[pay + 2]!.trim()).toBe(TAINTED);
    expect(lines.at(-1)).toMatch(/^end_turn · 3 turns · .* · tainted by fetch_page$/);
  });

  it('prints what docs/cli.md shows of it', async () => {
    const dir = await project(false);
    const { out } = await show(dir, ['pay.yaml', ...FLAGS]);
    const doc = readFileSync('docs/cli.md', 'utf8');
    const block = /```\n(user {5}Pay the invoice[^`]*)```/.exec(doc)![1]!;
    // All but the heading, which holds the time of recording.
    expect(`${out.split('\n').slice(1).join('\n')}\n`).toBe(block);
  });

  it('shows no audit when nothing is declared, and the prompt the client sent as blocks as its text', async () => {
    const dir = await project(false);
    const { code, out } = await show(dir, ['pay.yaml']);
    expect(code).toBe(0);
    expect(out).not.toContain('audit');
    expect(out).not.toContain('tainted');
    // The AI SDK sent the prompt as [{ type: 'text', text }]: shown as the text, not as its JSON.
    expect(loadTrajectory(join(dir, 'pay.yaml')).input).toEqual([{ type: 'text', text: PROMPT }]);
    expect(out.split('\n')[1]).toBe(`user     ${PROMPT}`);
  });

  it("leaves legate's own files as their guard recorded them", async () => {
    const dir = tempDir();
    copyFileSync('trajectories/zero-trust.yaml', join(dir, 'zero-trust.yaml'));
    const plain = await show(dir, ['zero-trust.yaml']);
    const flagged = await show(dir, ['zero-trust.yaml', '--untrusted', 'fetch_page', '--privileged', 'send_money']);
    expect(flagged).toEqual(plain);
  });

  it('exits 2 with one line for a flag or declarations the audit cannot read', async () => {
    const dir = await project(false);
    const bad = await show(dir, ['pay.yaml', '--limit', 'send_payment']);
    expect(bad).toEqual({
      code: 2,
      out: '',
      err: [
        "legate show: --limit takes tool=N (N a whole number), not 'send_payment'. Run 'legate show --help' for " +
          'its options.',
      ],
    });
    const sensitive = await show(dir, ['pay.yaml', ...FLAGS, '--sensitive', 'send_payment:payee']);
    expect(sensitive.code).toBe(2);
    expect(sensitive.err).toHaveLength(1);
    expect(sensitive.err[0]).toMatch(/^legate show: The audit's declarations 'sensitive\.send_payment'.*'payee'/);
  });
});

describe('legate view of a file recorded at the HTTP boundary', () => {
  it.each([
    ['the config', true, []],
    ['the flags', false, FLAGS],
  ])('links the paying call to the fetch that tainted it, by the declarations from %s', async (_, config, flags) => {
    const dir = await project(config);
    const { code, err, elements } = await view(dir, ['pay.yaml', ...flags]);
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const fetch = call(elements, 'toolu_01_fetch');
    const pay = call(elements, 'toolu_02_pay');
    expect(fetch.attributes['data-taints']).toBe('true');
    expect(pay.attributes['data-tainted-by']).toBe('toolu_01_fetch');
    expect(pay.attributes['data-audit']).toBe('taint');
    expect(pay.text).toContain('audit · would be blocked · taint · from fetch_page');
    const [link] = select(elements, 'a', { class: 'tainted-by' });
    expect(link!.attributes.href).toBe(`#${fetch.attributes.id}`);
    expect(link!.text).toBe('tainted by fetch_page (turn 1)');
    const [row] = select(elements, 'tr', { 'data-file': 'pay.yaml' });
    expect(row!.text).toContain('tainted by fetch_page');
    expect(select(elements, 'pre', { class: 'input-text' })[0]!.text).toBe(PROMPT);
  });

  it('links each conversation of the file within itself', async () => {
    const dir = tempDir();
    await recordPayment(dir, 2);
    const { code, elements } = await view(dir, ['pay.yaml', ...FLAGS]);
    expect(code).toBe(0);
    for (const n of [0, 1]) {
      expect(call(elements, `toolu_${n}1_fetch`).attributes['data-taints']).toBe('true');
      expect(call(elements, `toolu_${n}2_pay`).attributes['data-tainted-by']).toBe(`toolu_${n}1_fetch`);
    }
    const links = select(elements, 'a', { class: 'tainted-by' }).map((link) => link.attributes.href);
    expect(links).toEqual(['#call-toolu_01_fetch', '#call-toolu_11_fetch']);
    const shown = await show(dir, ['pay.yaml', ...FLAGS]);
    expect(shown.out).toContain(TAINTED);
    expect(shown.out).toContain(TAINTED.replace('toolu_01_fetch', 'toolu_11_fetch'));
    expect(shown.out.match(/· tainted by fetch_page$/gm)).toHaveLength(2);
  });

  it('shows no audit when nothing is declared', async () => {
    const dir = await project(false);
    const { code, page, elements } = await view(dir, ['pay.yaml']);
    expect(code).toBe(0);
    expect(page).not.toContain('data-audit');
    expect(call(elements, 'toolu_02_pay').attributes['data-tainted-by']).toBeUndefined();
    expect(select(elements, 'pre', { class: 'input-text' })[0]!.text).toBe(PROMPT);
  });

  it('exits 2 with one line, and writes no page, for declarations the audit cannot read', async () => {
    const dir = await project(false);
    const { code, err, page } = await view(dir, ['pay.yaml', ...FLAGS, '--sensitive', 'send_payment:payee']);
    expect(code).toBe(2);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^legate view: The audit's declarations 'sensitive\.send_payment'/);
    expect(page).toBe('');
  });
});

describe('a user message of content blocks', () => {
  it('is shown as its text by show and view: a tool result by the call it answers and what it said', async () => {
    const dir = tempDir();
    const { file, sent } = await recordPayment(dir);
    // The message the AI SDK sent with fetch_page's result, as the input of a run (a conversation that goes on).
    const messages = (sent[1] as { messages: { role: string; content: unknown }[] }).messages;
    const results = messages.at(-1)!;
    expect(results.content).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_01_fetch', content: PAGE }]);
    const trajectory = loadTrajectory(file);
    saveTrajectory(file, { ...trajectory, input: [{ type: 'text', text: 'Go on.' }, ...(results.content as [])] });
    const shown = await show(dir, ['pay.yaml']);
    expect(shown.out.split('\n')[1]).toBe(`user     Go on. [tool_result toolu_01_fetch] ${PAGE}`);
    const { elements } = await view(dir, ['pay.yaml']);
    expect(select(elements, 'pre', { class: 'input-text' })[0]!.text).toBe(
      `Go on.\n[tool_result toolu_01_fetch] ${PAGE}`,
    );
  });
});
