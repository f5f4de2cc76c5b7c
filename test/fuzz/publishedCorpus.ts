import { readdirSync, readFileSync } from 'node:fs';
import { defineTool } from '../../src/index.js';

/** Every tool schema of the corpus that defines a tool, as published (what the arbitraries read). */
export function publishedCorpus(): [string, Record<string, unknown>][] {
  const folder = new URL('../fixtures/tool-schemas/', import.meta.url);
  const found: [string, Record<string, unknown>][] = [];
  for (const group of ['mcp', 'python-openapi']) {
    for (const file of readdirSync(new URL(`${group}/`, folder))) {
      if (!file.endsWith('.json')) continue;
      const { inputSchema } = JSON.parse(readFileSync(new URL(`${group}/${file}`, folder), 'utf8'));
      try {
        const tool = defineTool({ name: 'corpus_tool', description: file, input: inputSchema, run: () => 'ok' });
        found.push([`${group}/${file}`, tool.inputSchema]);
      } catch {
        // A schema the binder refuses at definition (a root union or array) has no published form.
      }
    }
  }
  return found;
}
