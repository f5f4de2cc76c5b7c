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
