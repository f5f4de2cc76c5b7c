import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadTrajectory } from '../../src/trajectory/trajectoryFile.js';
import { capturedResponse, startUpstream } from '../intercept/upstream.js';
import { readmeSnippets } from '../support/readmeSnippets.js';
import { useTempDir } from '../support/tempDir.js';

// docs/intercept.md, "The recording proxy": its code example run as written (but for where 'legate/intercept' is
// imported from), around an agent in a process of its own that knows the API only as ANTHROPIC_BASE_URL. It records
// against a local stand-in (the proxy's default upstream is this process's ANTHROPIC_BASE_URL), then replays with the
// stand-in closed.

const tempDir = useTempDir();
afterEach(() => vi.unstubAllEnvs());

const snippet = readmeSnippets(readFileSync('docs/intercept.md', 'utf8')).find(
  (block) => block.name === 'proxy-from-code',
)!.code;

/** The agent: another Node process asking one question with fetch, printing the answer's text. */
const AGENT = `
const response = await fetch(process.env.ANTHROPIC_BASE_URL + '/v1/messages', {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-api-key': process.env.ANTHROPIC_API_KEY },
  body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] }),
});
console.log((await response.json()).content[0].text);
`;

describe('docs/intercept.md, "The recording proxy"', () => {
  it('records an agent in another process from code, and replays it offline', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'agent.mjs'), AGENT);
    const printed: string[] = [];
    const runner = `import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
export const printed = [];
async function runMyAgentProcess({ env }) {
  const { stdout } = await promisify(execFile)(process.execPath, [${JSON.stringify(join(dir, 'agent.mjs'))}], { env });
  printed.push(stdout.trim());
}
${snippet.replace("'legate/intercept'", JSON.stringify(resolve('src/intercept/index.ts')))}`;
    const cwd = process.cwd();
    const upstream = await startUpstream([capturedResponse('ai-sdk--text.json')]);
    vi.stubEnv('ANTHROPIC_BASE_URL', upstream.url);
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-dummy');
    for (const name of ['LEGATE_MODE', 'CI']) vi.stubEnv(name, '');
    process.chdir(dir);
    try {
      for (const run of ['record', 'replay']) {
        const module = join(dir, `${run}.ts`);
        writeFileSync(module, runner);
        printed.push(...((await import(module)) as { printed: string[] }).printed);
        if (run === 'record') await upstream.close();
      }
    } finally {
      process.chdir(cwd);
      await upstream.close().catch(() => {});
    }
    expect(upstream.seen).toHaveLength(1);
    expect(printed).toHaveLength(2);
    expect(printed[1]).toBe(printed[0]);
    expect(printed[0]).toMatch(/^Hello!/);
    expect(loadTrajectory(join(dir, 'trajectories/agent.yaml'))).toMatchObject({ boundary: 'http', input: 'Hi' });
  }, 120_000);

  it('lists each normalisation once in its table, with the default the code applies', async () => {
    const { NORMALISATION_NAMES, resolveNormalisations } = await import('../../src/trajectory/normalisations.js');
    const doc = readFileSync('docs/intercept.md', 'utf8');
    const section = doc.slice(
      doc.indexOf('## Normalisations'),
      doc.indexOf('\n## ', doc.indexOf('## Normalisations') + 1),
    );
    const rows = [...section.matchAll(/^\| `(\w+)` \|.*\| ([^|]+) \|$/gm)].map(([, name, byDefault]) => ({
      name,
      byDefault: byDefault!.trim(),
    }));
    expect(rows.map((row) => row.name)).toEqual(NORMALISATION_NAMES);
    for (const { name, byDefault } of rows) {
      const on = (claudeCode: boolean) => resolveNormalisations({}, claudeCode).includes(name as never);
      expect([on(false), on(true)], name).toEqual(byDefault === 'on' ? [true, true] : [false, true]);
    }
  });
});
