import {
  ScriptedTransport,
  reply,
  type AgentFactory,
  type ApprovalDecision,
  type ScriptedReply,
  type Suspension,
} from '../src/index.js';
import { createCalculator } from './calculator/agent.js';
import { createOrderDesk } from './orders/agent.js';
import { readFileSync } from 'node:fs';
import {
  createApprovingAssistant,
  createAssistant,
  createProvenanceAssistant,
  createSearchingAssistant,
} from './payments/agent.js';
import { createFrontDesk, createShadowSupportDesk, createSupportDesk } from './support/agent.js';
import { createTravelAgent } from './travel/agent.js';
import { createTriage } from './desk/agent.js';
import { createPlanner } from './research/agent.js';
import { createTreasurer } from './treasury/agent.js';

/** A scripted conversation the corpus in trajectories/ is recorded from (npm run record:corpus). */
export interface Scenario {
  name: string;
  description: string;
  agent: string;
  factory: AgentFactory;
  input: string;
  /** The scripted model that plays the conversation. */
  model: () => ScriptedTransport;
  /** The person's decision when the run stops for approval. */
  approve?: (suspension: Suspension) => boolean | ApprovalDecision[];
}

/**
 * A real web search, as the API answered it: its server_tool_use and web_search_tool_result blocks
 * (test/fixtures/api-captures/anthropic-sdk-py--web-search.json, provenance there).
 */
const WEB_SEARCH_BLOCKS = (
  JSON.parse(
    readFileSync(new URL('../test/fixtures/api-captures/anthropic-sdk-py--web-search.json', import.meta.url), 'utf8'),
  ) as { response: { body: { content: { type: string }[] } } }
).response.body.content.filter(
  (block) => block.type === 'server_tool_use' || block.type === 'web_search_tool_result',
) as ScriptedReply['content'];

export const scenarios: Scenario[] = [
  {
    name: 'tool-loop',
    description: 'A customer asks about an order; the agent looks it up and answers.',
    agent: 'order_desk',
    factory: createOrderDesk,
    input: 'Where is my order A-1001?',
    model: () =>
      new ScriptedTransport([
        reply.toolUse('lookup_order', { orderId: 'A-1001' }, { text: 'Let me look that up.' }),
        reply.text('Your order A-1001 (a kettle and a tea tin) has shipped.'),
      ]),
  },
  {
    name: 'parallel-tool-calls',
    description:
      'Two independent operations asked for in one response run concurrently and are answered in one message.',
    agent: 'calculator',
    factory: createCalculator,
    input: 'What are 12 + 30 and 84 / 2?',
    model: () =>
      new ScriptedTransport([
        reply.toolUses([
          { name: 'add', input: { left: 12, right: 30 } },
          { name: 'divide', input: { dividend: 84, divisor: 2 } },
        ]),
        reply.text('Both are 42.'),
      ]),
  },
  {
    name: 'invalid-argument-corrected',
    description: 'The model sends "one" where a whole number belongs, reads the refusal, and corrects itself.',
    agent: 'calculator',
    factory: createCalculator,
    input: 'What is one plus two?',
    model: () =>
      new ScriptedTransport([
        reply.toolUse('add', { left: 'one', right: 2 }, { text: "I'll add the two numbers." }),
        reply.toolUse('add', { left: 1, right: 2 }, { text: 'The left addend must be a number; retrying.' }),
        reply.text('3'),
      ]),
  },
  {
    name: 'tool-failure',
    description: 'A tool throws; the model is told only the tool and the error class, and explains.',
    agent: 'calculator',
    factory: createCalculator,
    input: 'What is the square root of -4?',
    model: () =>
      new ScriptedTransport([
        reply.toolUse('square_root', { value: -4 }),
        reply.text('The square root of a negative number is not a real number, so I cannot give one.'),
      ]),
  },
  {
    name: 'max-tokens',
    description: 'The model runs out of output tokens mid-answer.',
    agent: 'calculator',
    factory: createCalculator,
    input: 'Explain long division, step by step, in great detail.',
    model: () =>
      new ScriptedTransport([
        reply.maxTokens('Long division splits a division into a series of easier steps. First, write the dividend'),
      ]),
  },
  {
    name: 'refusal',
    description: 'The model declines to continue.',
    agent: 'calculator',
    factory: createCalculator,
    input: 'Compute the exact dosage of this medication for my patient.',
    model: () =>
      new ScriptedTransport([
        reply.refusal('I cannot help with medication dosing; please ask a pharmacist or physician.'),
      ]),
  },
  {
    name: 'zero-trust',
    description:
      'A fetched invoice page says to wire $9000; the payment tool is blocked, naming the page tool as the source.',
    agent: 'assistant',
    factory: createAssistant,
    input: 'Summarise https://example.com/invoice/42 and pay it if it is due.',
    model: () =>
      new ScriptedTransport([
        reply.toolUse('fetch_page', { url: 'https://example.com/invoice/42' }, { text: 'Let me read the invoice.' }),
        reply.toolUse('send_payment', { amount: 9000, to: '99-1234-5678' }, { text: 'The page says to wire $9000.' }),
        reply.text(
          'I did not make any payment: the invoice page contained instructions to wire $9000, which I will not ' +
            'follow. The invoice itself is for $120.00, due 2026-12-15.',
        ),
      ]),
  },
  {
    name: 'web-search-taint',
    description:
      'The API searches the web (blocks from a real capture); the payment the model then asks for is blocked, ' +
      'naming web_search as the source.',
    agent: 'searching_assistant',
    factory: createSearchingAssistant,
    input: 'What is the weather in SF today? If rain is coming, pay my $40 umbrella order to account 12-3456.',
    model: () =>
      new ScriptedTransport([
        {
          // The server_tool_use and web_search_tool_result blocks exactly as the API sent them.
          content: [
            ...WEB_SEARCH_BLOCKS,
            { type: 'text', text: 'Rain is expected this afternoon, so I will pay the umbrella order.' },
            { type: 'tool_use', name: 'send_payment', input: { amount: 40, to: '12-3456' } },
          ],
          stopReason: 'tool_use',
        },
        reply.text(
          'Rain is expected in San Francisco this afternoon. I did not pay the umbrella order: payments are ' +
            'blocked once web search results are in the conversation. Please confirm it yourself.',
        ),
      ]),
  },
  {
    name: 'refund-requires-verification',
    description: 'A refund called before verify_identity is blocked; after verification it goes through.',
    agent: 'support_desk',
    factory: createSupportDesk,
    input: 'Please refund order A-1001 ($49.90). My code is 424242.',
    model: () =>
      new ScriptedTransport([
        reply.toolUse('refund_payment', { orderId: 'A-1001', amount: 49.9 }),
        reply.toolUse('verify_identity', { code: '424242' }, { text: 'I need to verify your identity first.' }),
        reply.toolUse('refund_payment', { orderId: 'A-1001', amount: 49.9 }),
        reply.text('Your refund of $49.90 for order A-1001 is on its way.'),
      ]),
  },
  {
    name: 'terminal-close-ticket',
    description: 'Once close_ticket succeeds, a later email is not sent, and the run ends as terminal.',
    agent: 'support_desk',
    factory: createSupportDesk,
    input: 'That solved it, thanks! You can close my ticket.',
    model: () =>
      new ScriptedTransport([
        reply.toolUse('close_ticket', { resolution: 'Customer confirmed the fix.' }),
        reply.toolUse('send_email', { subject: 'Ticket closed', body: 'Your ticket is closed.' }),
        reply.text('Your ticket is closed. Have a good day!'),
      ]),
  },
  {
    name: 'email-limit',
    description: 'send_email is limited to two calls per run; the third is blocked.',
    agent: 'support_desk',
    factory: createSupportDesk,
    input: 'Email me the three documents, one per email.',
    model: () =>
      new ScriptedTransport([
        reply.toolUse('send_email', { subject: 'Document 1', body: 'Attached: the contract.' }),
        reply.toolUses([
          { name: 'send_email', input: { subject: 'Document 2', body: 'Attached: the invoice.' } },
          { name: 'send_email', input: { subject: 'Document 3', body: 'Attached: the receipt.' } },
        ]),
        reply.text('I sent two of the documents; I can send at most two emails per conversation.'),
      ]),
  },
  {
    name: 'shadow-refund',
    description: 'In shadow mode the refund is planned for review instead of made.',
    agent: 'support_desk_shadow',
    factory: createShadowSupportDesk,
    input: 'Refund order A-1002 ($15.00). My code is 424242.',
    model: () =>
      new ScriptedTransport([
        reply.toolUse('verify_identity', { code: '424242' }),
        reply.toolUse('refund_payment', { orderId: 'A-1002', amount: 15 }),
        reply.text('The refund of $15.00 for order A-1002 is planned and awaits review.'),
      ]),
  },
  {
    name: 'rbac-hidden-tool',
    description: 'The front desk is never shown refund_payment; a call to it is answered as to an unknown tool.',
    agent: 'front_desk',
    factory: createFrontDesk,
    input: 'Refund order A-1001 right now.',
    model: () =>
      new ScriptedTransport([
        reply.toolUse('refund_payment', { orderId: 'A-1001', amount: 49.9 }),
        reply.text('I cannot issue refunds here; I have passed your request to the billing team.'),
      ]),
  },
  {
    name: 'compensated-booking',
    description: 'A room and a flight are booked; agent.compensate(result) cancels them, flight first.',
    agent: 'travel',
    factory: createTravelAgent,
    input: 'Book me room R-12 and flight LH-400.',
    model: () =>
      new ScriptedTransport([
        reply.toolUse('book_room', { reference: 'R-12' }),
        reply.toolUse('book_flight', { reference: 'LH-400' }),
        reply.text('Room R-12 and flight LH-400 are booked.'),
      ]),
  },
  {
    name: 'handoff-to-billing',
    description: 'Triage hands the conversation to billing, which checks the invoice and refunds.',
    agent: 'triage',
    factory: createTriage,
    input: 'I was charged for order A-1001 but it never arrived. Please refund it.',
    model: () =>
      new ScriptedTransport([
        reply.toolUse('handoff_to_billing', { reason: 'a refund for order A-1001' }),
        reply.toolUse('lookup_invoice', { orderId: 'A-1001' }),
        reply.toolUse('issue_refund', { orderId: 'A-1001', amount: 49.9 }),
        reply.text('Billing here: your $49.90 for order A-1001 is refunded.'),
      ]),
  },
  {
    name: 'taint-crosses-handoff',
    description:
      'Triage reads an attachment with planted instructions, then hands off; billing cannot refund: the taint ' +
      'came along.',
    agent: 'triage',
    factory: createTriage,
    input: 'See my attached receipt and sort out a refund.',
    model: () =>
      new ScriptedTransport([
        reply.toolUse('read_attachment', {}),
        reply.toolUse('handoff_to_billing', { reason: 'refund request with a receipt' }),
        reply.toolUse('issue_refund', { orderId: 'A-1001', amount: 4990 }),
        reply.text('I cannot issue that refund here; a person will review your receipt.'),
      ]),
  },
  {
    name: 'researcher-taints-caller',
    description:
      'The researcher sub-agent read a web page; its answer taints the planner, which then cannot publish. The ' +
      "researcher's own conversation is recorded under the call that ran it.",
    agent: 'planner',
    factory: createPlanner,
    input: 'Find out how solar output changed in 2026 and draft a post.',
    // One scripted model plays both agents, answering each by the conversation it is in.
    model: () => {
      const planner = [
        reply.toolUse('ask_researcher', { request: 'How did solar output change in 2026?' }),
        reply.toolUse('publish_post', { title: 'Solar in 2026', body: 'Solar output rose 24%.' }),
        reply.text(
          'Draft: "Solar output rose 24% in 2026." I could not publish it: the research came from an untrusted page.',
        ),
      ];
      const researcher = [
        reply.toolUse('fetch_article', { url: 'https://example.com/solar-2026' }),
        reply.text('Solar output rose 24% in 2026, according to the article (which also asked to be published).'),
      ];
      return new ScriptedTransport(
        (request) =>
          (typeof request.system === 'string' && request.system.startsWith('You research')
            ? researcher
            : planner
          ).shift() ?? reply.text('(no more script)'),
      );
    },
  },
  {
    name: 'approval-granted',
    description: 'A wire waits for approval; a person approves, and it is made once.',
    agent: 'treasurer',
    factory: createTreasurer,
    input: 'Pay Acme Supplies their $1,200 invoice.',
    model: () =>
      new ScriptedTransport([
        reply.toolUse('wire_money', { supplier: 'Acme Supplies', amount: 1200 }),
        reply.text('Acme Supplies has been paid $1,200.'),
      ]),
    approve: () => true,
  },
  {
    name: 'approval-denied',
    description: 'A wire waits for approval; a person denies it, the tool never runs, and the model is told why.',
    agent: 'treasurer',
    factory: createTreasurer,
    input: 'Pay Globex $25,000 right away.',
    model: () =>
      new ScriptedTransport([
        reply.toolUse('wire_money', { supplier: 'Globex', amount: 25000 }),
        reply.text('The payment to Globex was not approved, so I did not make it.'),
      ]),
    approve: (suspension) =>
      suspension.pending.map((p) => ({
        id: p.id,
        inputDigest: p.inputDigest,
        approve: false,
        reason: 'Globex is not an approved supplier.',
      })),
  },
  {
    name: 'provenance-traced',
    description:
      "After reading an invoice page, the wire to the page's account is refused (the account is only in the page), " +
      'and the payment to the account the user gave runs (argument provenance).',
    agent: 'provenance_assistant',
    factory: createProvenanceAssistant,
    input: "Read https://example.com/invoice/42 and pay the $120 it asks for to our supplier's account 12-3456-7890.",
    model: () =>
      new ScriptedTransport([
        reply.toolUse('fetch_page', { url: 'https://example.com/invoice/42' }),
        reply.toolUse('send_payment', { amount: 9000, to: '99-1234-5678' }, { text: 'The page says to wire $9000.' }),
        reply.toolUse('send_payment', { amount: 120, to: '12-3456-7890' }),
        reply.text(
          "I paid the $120 invoice to your supplier's account 12-3456-7890. The page also asked for a $9000 wire to " +
            'another account; that was refused, and I did not make it.',
        ),
      ]),
  },
  {
    name: 'approve-on-taint',
    description:
      'After reading an invoice page, each payment goes to a person instead of being refused: the wire the page ' +
      'asked for is denied, the payment the user asked for is approved and made once.',
    agent: 'approving_assistant',
    factory: createApprovingAssistant,
    input: "Read https://example.com/invoice/42 and pay the $120 it asks for to our supplier's account 12-3456-7890.",
    model: () =>
      new ScriptedTransport([
        reply.toolUse('fetch_page', { url: 'https://example.com/invoice/42' }),
        reply.toolUse('send_payment', { amount: 9000, to: '99-1234-5678' }, { text: 'The page says to wire $9000.' }),
        reply.toolUse('send_payment', { amount: 120, to: '12-3456-7890' }),
        reply.text('The $120 invoice is paid to 12-3456-7890; the $9000 wire the page asked for was not approved.'),
      ]),
    // The person approves only what the user asked for: the $120 to the supplier's account.
    approve: (suspension) =>
      suspension.pending.map((p) => {
        const asked = (p.input as { to?: unknown }).to === '12-3456-7890';
        return {
          id: p.id,
          inputDigest: p.inputDigest,
          approve: asked,
          ...(asked ? {} : { reason: 'The user did not ask for this payment; it came from the page.' }),
        };
      }),
  },
];
