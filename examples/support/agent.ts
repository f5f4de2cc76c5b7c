import { Agent, defineTool, policies, rules, type AgentOptions, type Transport } from '../../src/index.js';

const orderInput = {
  type: 'object',
  properties: { orderId: { type: 'string', pattern: '^[A-Z]-[0-9]{4}$' } },
  required: ['orderId'],
} as const;

export const verifyIdentity = defineTool({
  name: 'verify_identity',
  description: "Verifies the customer's identity with the code sent to their phone. Required before any refund.",
  input: { type: 'object', properties: { code: { type: 'string', pattern: '^[0-9]{6}$' } }, required: ['code'] },
  annotations: { title: 'Verify identity', readOnly: true },
  run: ({ code }) => (code === '424242' ? 'Identity verified.' : 'The code does not match.'),
});

export const refundPayment = defineTool({
  name: 'refund_payment',
  description: 'Refunds an order to the card it was paid with.',
  input: {
    ...orderInput,
    properties: { ...orderInput.properties, amount: { type: 'number', exclusiveMinimum: 0 } },
    required: ['orderId', 'amount'],
  },
  privileged: true,
  policy: 'payments',
  annotations: { title: 'Refund a payment', destructive: true },
  run: ({ orderId, amount }) => `Refunded $${amount} for ${orderId}.`,
});

export const sendEmail = defineTool({
  name: 'send_email',
  description: 'Sends the customer an email.',
  input: {
    type: 'object',
    properties: { subject: { type: 'string', maxLength: 120 }, body: { type: 'string' } },
    required: ['subject', 'body'],
  },
  annotations: { title: 'Send an email', destructive: false },
  run: ({ subject }) => `Email "${subject}" sent.`,
});

export const closeTicket = defineTool({
  name: 'close_ticket',
  description: 'Closes the support ticket. Call it last, once the customer is helped.',
  input: { type: 'object', properties: { resolution: { type: 'string' } }, required: ['resolution'] },
  annotations: { title: 'Close the ticket', idempotent: true },
  run: () => 'Ticket closed.',
});

const supportRules = [
  rules.require('refund_payment', 'verify_identity'),
  rules.terminal('close_ticket'),
  rules.limit('send_email', 2),
];

function supportAgent(transport: Transport, overrides: Partial<AgentOptions>): Agent {
  return new Agent({
    name: 'support_desk',
    model: 'claude-haiku-5-5',
    system: 'You are a support agent. Verify identity before refunds, keep emails few, and close the ticket when done.',
    tools: [verifyIdentity, refundPayment, sendEmail, closeTicket],
    rules: supportRules,
    authorizer: policies('payments'),
    transport,
    maxTurns: 8,
    ...overrides,
  });
}

/** The support desk, allowed to refund. */
export function createSupportDesk(transport: Transport): Agent {
  return supportAgent(transport, {});
}

/** The same desk in shadow mode: refunds are planned for review, not made. */
export function createShadowSupportDesk(transport: Transport): Agent {
  return supportAgent(transport, { name: 'support_desk_shadow', mode: 'shadow' });
}

/** A front desk without the payments policy: it is never shown the refund tool. */
export function createFrontDesk(transport: Transport): Agent {
  return supportAgent(transport, { name: 'front_desk', authorizer: policies() });
}
