import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  Agent,
  ScriptedTransport,
  defineTool,
  reply,
  serverTool,
  type AgentOptions,
  type Message,
  type ModelResponse,
  type ScriptStep,
} from '../../src/index.js';

/**
 * A server tool's result is content legate did not write: it taints the run with the server
 * tool's name as source (the name of the use block the result answers), unless the agent trusts
 * that server tool. Built from real captures (test/fixtures/api-captures, provenance there).
 */

const body = (name: string) =>
  JSON.parse(readFileSync(join('test/fixtures/api-captures', `${name}.json`), 'utf8')).response.body as ModelResponse;

/** The capture's blocks, then a call of `send_payment`: the model read the result, then asked to pay. */
function readThenPay(capture: string): ScriptStep {
  const blocks = body(capture).content.filter((block) => block.type !== 'text' && block.type !== 'tool_use');
  return {
    content: [...blocks, { type: 'tool_use', id: 'toolu_pay', name: 'send_payment', input: { amount: 9000 } }],
    stopReason: 'tool_use',
  } as ScriptStep;
}

async function run(step: ScriptStep, tools: AgentOptions['tools'] = []) {
  const pay = vi.fn(() => 'paid');
  const sendPayment = defineTool({
    name: 'send_payment',
    description: 'Pays.',
    input: { type: 'object', properties: { amount: { type: 'number' } } },
    privileged: true,
    run: pay,
  });
  const transport = new ScriptedTransport([step, reply.text('Done.')]);
  const agent = new Agent({ name: 'desk', model: 'm', transport, tools: [sendPayment, ...(tools ?? [])] });
  return { result: await agent.run('Look it up and pay.'), pay };
}

const webSearch = { type: 'web_search_20250305', name: 'web_search' };

describe('server tool results taint by server tool name', () => {
  it('a web search result (real capture) taints with source web_search, and blocks a privileged call', async () => {
    const { result, pay } = await run(readThenPay('anthropic-sdk-py--web-search'), [webSearch]);
    expect(pay).not.toHaveBeenCalled();
    expect(result.taintSource).toBe('web_search');
    expect(result.guard.taint).toEqual({ source: 'web_search', id: 'srvtoolu_01JCzA8PXrZDNPK9pSt8KCE9' });
    expect(result.blocked).toEqual([
      expect.objectContaining({ tool: 'send_payment', rule: 'taint', source: 'web_search' }),
    ]);
  });

  it('a web fetch result (real capture) taints with source web_fetch', async () => {
    const { result } = await run(readThenPay('pydantic-ai--web-fetch'));
    expect(result.taintSource).toBe('web_fetch');
  });

  it('an MCP connector result (real capture) taints with the MCP tool name', async () => {
    const { result } = await run(readThenPay('ai-sdk--mcp-tool-use'));
    expect(result.taintSource).toBe('echo');
  });

  it("code execution's sub-tools (real capture) taint by default, under their own names", async () => {
    const { result } = await run(readThenPay('pydantic-ai--code-execution-bash'));
    expect(result.taintSource).toBe('bash_code_execution');
  });

  it('tool search results (real capture) do not taint: they name tools of the agent', async () => {
    const { result, pay } = await run(readThenPay('ai-sdk--tool-search-bm25'));
    expect(result.tainted).toBe(false);
    expect(pay).toHaveBeenCalledTimes(1);
  });

  it('an agent can trust a server tool: serverTool(definition, { untrusted: false })', async () => {
    const trusted = await run(readThenPay('anthropic-sdk-py--web-search'), [
      serverTool(webSearch, { untrusted: false }),
    ]);
    expect(trusted.result.tainted).toBe(false);
    expect(trusted.pay).toHaveBeenCalledTimes(1);
    const code = serverTool({ type: 'code_execution_20260120', name: 'code_execution' }, { untrusted: false });
    expect((await run(readThenPay('pydantic-ai--code-execution-bash'), [code])).result.tainted).toBe(false);
  });

  it('and can distrust one legate trusts by default', async () => {
    const search = serverTool(
      { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
      { untrusted: true },
    );
    expect((await run(readThenPay('ai-sdk--tool-search-bm25'), [search])).result.taintSource).toBe(
      'tool_search_tool_bm25',
    );
  });

  it("a history's server results are judged by the same setting", async () => {
    const history: Message[] = [
      { role: 'user', content: 'Search.' },
      { role: 'assistant', content: body('anthropic-sdk-py--web-search').content },
    ];
    const make = (tools: AgentOptions['tools']) =>
      new Agent({ name: 'desk', model: 'm', transport: new ScriptedTransport([reply.text('ok')]), tools });
    expect((await make([webSearch]).run('Pay.', { history })).taintSource).toBe('web_search');
    expect((await make([serverTool(webSearch, { untrusted: false })]).run('Pay.', { history })).tainted).toBe(false);
  });

  it('a sub-agent with an untrusted server tool makes its asTool untrusted', () => {
    const researcher = new Agent({
      name: 'researcher',
      model: 'm',
      transport: new ScriptedTransport([]),
      tools: [webSearch],
    });
    expect(researcher.asTool('research', 'Researches.').untrusted).toBe(true);
    const offline = new Agent({
      name: 'offline',
      model: 'm',
      transport: new ScriptedTransport([]),
      tools: [serverTool(webSearch, { untrusted: false })],
    });
    expect(offline.asTool('research', 'Researches.').untrusted).toBe(false);
  });
});
