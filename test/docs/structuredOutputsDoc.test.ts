import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { Agent, ScriptedTransport, reply } from '../../src/index.js';
import { readmeSnippets } from '../support/readmeSnippets.js';
import { pointedAtSource } from '../support/snippetSource.js';

// Runs docs/structured-outputs.md's example, its imports of 'legate' pointed at this repository's source.
const root = resolve('.');
const folder = join(root, '.legate-structured-outputs-doc');
const snippets = readmeSnippets(readFileSync('docs/structured-outputs.md', 'utf8'));

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('docs/structured-outputs.md', () => {
  it('runs its example, which prints the checked, typed output', async () => {
    expect(snippets.map((s) => s.name)).toEqual(['structured-output']);
    const printed: unknown[][] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      printed.push(args);
    });
    mkdirSync(folder, { recursive: true });
    const file = join(folder, 'structured-output.ts');
    writeFileSync(file, pointedAtSource(snippets[0]!.code));
    await import(file);
    vi.restoreAllMocks();
    expect(printed).toEqual([['paid', 14]]);
  });

  it('quotes the message of a StructuredOutputError as a run gives it', async () => {
    const transport = new ScriptedTransport([reply.text('{"items": [{"quantity": 3}, {"quantity": 1}]}')]);
    const agent = new Agent({ name: 'clerk', model: 'claude-sonnet-4-5', transport });
    const Order = z.object({ items: z.array(z.object({ quantity: z.number().int().min(2) })) });
    const error = (await agent.run('Order?', { output: Order }).catch((e: unknown) => e)) as Error;
    const flat = readFileSync('docs/structured-outputs.md', 'utf8').replace(/\s*\n\s*/g, ' ');
    expect(flat).toContain(`\`${error.message}\``);
  });
});
