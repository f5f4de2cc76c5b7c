import { readdirSync, readFileSync } from 'node:fs';
import { it } from 'vitest';
import { fuzzTool } from '../../src/fuzz/index.js';
import { defineTool } from '../../src/index.js';
it('all', async () => {
  const folder = new URL('../fixtures/tool-schemas/', import.meta.url);
  const out: string[] = [];
  let cases = 0;
  let secs = 0;
  for (const group of ['mcp', 'python-openapi']) {
    for (const file of readdirSync(new URL(`${group}/`, folder))) {
      if (!file.endsWith('.json')) continue;
      const { inputSchema } = JSON.parse(readFileSync(new URL(`${group}/${file}`, folder), 'utf8'));
      let tool;
      try {
        tool = defineTool({ name: 't', description: 'd', input: inputSchema, run: () => 'ok' });
      } catch (e) {
        continue;
      }
      for (const seed of [11, 12])
        try {
          const r = await fuzzTool(tool, { numRuns: 400, seed });
          cases += r.cases;
          secs += r.seconds;
          for (const f of r.failures)
            out.push(
              `${file}: ${f.property}: ${f.message.slice(0, 700)} :: ${JSON.stringify(f.counterexample).slice(0, 400)}`,
            );
        } catch (e) {
          out.push(`${file}: THROW ${(e as Error).stack?.slice(0, 300)}`);
        }
    }
  }
  console.log(out.join('\n'));
  console.log('problems', out.length, 'cases/s', cases / secs);
}, 900000);
