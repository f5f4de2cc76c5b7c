// The script the agent fixture (test/fixtures/agent-sdk/agent.mjs) runs against the stand-in: fetch the
// invoice page (after a thinking block, to see whether the SDK sends it back), pay, then a final text.
import type { ScriptedTurn } from './agentSdkStandIn.js';

export const PAYMENT_SCRIPT: ScriptedTurn[] = [
  {
    content: [
      { type: 'thinking', thinking: 'I should read the invoice first.', signature: 'c2lnbmF0dXJlLTE=' },
      { type: 'text', text: 'Reading the invoice.' },
      {
        type: 'tool_use',
        id: 'toolu_01FetchPage',
        name: 'mcp__billing__fetch_page',
        input: { url: 'https://acme.example/invoice/2291' },
      },
    ],
    stop_reason: 'tool_use',
  },
  {
    content: [
      {
        type: 'tool_use',
        id: 'toolu_02SendPayment',
        name: 'mcp__billing__send_payment',
        input: { iban: 'DE44500105175407324931', amount: 120, currency: 'EUR' },
      },
    ],
    stop_reason: 'tool_use',
  },
  { content: [{ type: 'text', text: 'Paid 120.00 EUR to ACME Supplies.' }], stop_reason: 'end_turn' },
];

/** The same run where the model first loads the deferred MCP tools through Claude Code's ToolSearch tool. */
export const TOOL_SEARCH_PAYMENT_SCRIPT: ScriptedTurn[] = [
  {
    content: [
      {
        type: 'tool_use',
        id: 'toolu_00ToolSearch',
        name: 'ToolSearch',
        input: { query: 'select:mcp__billing__fetch_page,mcp__billing__send_payment' },
      },
    ],
    stop_reason: 'tool_use',
  },
  ...PAYMENT_SCRIPT,
];

/** One response with two text blocks and both tool calls at once, then the final text. */
export const PARALLEL_PAYMENT_SCRIPT: ScriptedTurn[] = [
  {
    content: [
      { type: 'thinking', thinking: 'Both at once.', signature: 'c2lnbmF0dXJlLTI=' },
      { type: 'text', text: 'First part. ' },
      { type: 'text', text: 'Second part.' },
      { ...PAYMENT_SCRIPT[0]?.content[2], id: 'toolu_03FetchPage' } as ScriptedTurn['content'][number],
      { ...PAYMENT_SCRIPT[1]?.content[0], id: 'toolu_04SendPayment' } as ScriptedTurn['content'][number],
    ],
    stop_reason: 'tool_use',
  },
  PAYMENT_SCRIPT[2] as ScriptedTurn,
];
