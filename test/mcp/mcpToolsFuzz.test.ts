import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzTool } from '../../src/fuzz/index.js';
import { malformedInput } from '../../src/fuzz/arbitraries/malformedInput.js';
import { validInput } from '../../src/fuzz/arbitraries/validInput.js';
import { Agent, ScriptedTransport, reply } from '../../src/index.js';
import { mcpTools, type McpTools } from '../../src/mcp/index.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

/** Real-world schemas (test/fixtures/tool-schemas/, provenance in each file) an MCP server publishes as they are. */
const CORPUS = [
  'mcp/python-sdk-example__name_shrimp.json',
  'mcp/github-mcp-server__projects_write.json',
  'mcp/sentry-mcp__update_issue.json',
  'mcp/github-mcp-server__create_pull_request.json',
  'mcp/github-mcp-server__issue_write.json',
  'python-openapi/agentdojo__share_file.json',
  'python-openapi/agentdojo__send_email.json',
  'python-openapi/tau2-airline__book_reservation.json',
  'python-openapi/agentdojo__create_calendar_event.json',
].map((file) => fileURLToPath(new URL(`../fixtures/tool-schemas/${file}`, import.meta.url)));

const SERVER = fileURLToPath(new URL('./fixtures/client-corpus.mjs', import.meta.url));

let dir: string;
let log: string;
let mcp: McpTools;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'legate-mcp-fuzz-'));
  log = join(dir, 'server.log');
  mcp = await mcpTools({
    command: process.execPath,
    args: [SERVER],
    env: { MCP_CORPUS_FILES: JSON.stringify(CORPUS), MCP_FIXTURE_LOG: log },
    stderr: 'ignore',
  });
});

afterAll(async () => {
  await mcp?.close();
  rmSync(dir, { recursive: true, force: true });
});

function received(): { name: string; args: unknown }[] {
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.event === 'call');
}

describe('mcpTools over the real-world schema corpus', () => {
  it('lists every tool, page after page, with the schema the server publishes', () => {
    const names = CORPUS.map((file) => JSON.parse(readFileSync(file, 'utf8')).tool);
    expect(mcp.tools.map((tool) => tool.name)).toEqual(names);
  });

  it('passes fuzzTool: the binder refuses every malformed input where it was broken', async () => {
    for (const tool of mcp.tools) {
      const report = await fuzzTool(tool, { numRuns: 100, seed: 16 });
      expect(report.failures, tool.name).toEqual([]);
    }
  });

  it('lets no malformed input reach the server: every call it received passes the binder', async () => {
    for (const [i, tool] of mcp.tools.entries()) {
      const before = received().length;
      const broken = fc.sample(malformedInput(tool), { numRuns: 30, seed: 16 + i }).map((found) => found.input);
      const valid = fc.sample(validInput(tool), { numRuns: 5, seed: 16 + i });
      const inputs = [...broken, ...valid];
      const agent = new Agent({
        name: 'fuzz',
        model: 'claude-haiku-5-5',
        tools: [tool],
        transport: new ScriptedTransport([
          reply.toolUses(inputs.map((input) => ({ name: tool.name, input }))),
          reply.text('Done.'),
        ]),
      });
      const result = await agent.run('Go.');
      const ran = result.toolCalls.filter((call) => call.outcome === 'ok');
      const arrived = received().slice(before);
      expect(arrived.map((call) => call.name)).toEqual(ran.map(() => tool.name));
      for (const call of arrived)
        expect(tool.bind(call.args).ok, `${tool.name} ${JSON.stringify(call.args)}`).toBe(true);
      expect(ran.length).toBeGreaterThanOrEqual(valid.length);
      expect(result.toolCalls.filter((call) => call.outcome === 'invalid').length).toBe(broken.length);
    }
  });
});
