// A fixture for a finding's round trip through the command line: an agent whose limit on
// send_email is declared but, when `enforced` is false, never reaches its guard (the rule is added
// after construction), so `legate fuzz` finds a second email; enforced, the same rule is a real one.
import { Agent, defineTool, rules, type AgentFactory, type Rule } from '../../src/index.js';

const sendEmail = defineTool({
  name: 'send_email',
  description: 'Sends an email to the customer.',
  input: { type: 'object', properties: { subject: { type: 'string' } }, required: ['subject'] },
  run: ({ subject }) => `Sent '${subject}'.`,
});

export function mailer(enforced: boolean): AgentFactory {
  const limit = rules.limit('send_email', 1);
  return (transport) => {
    const agent = new Agent({
      name: 'mailer',
      model: 'claude-haiku-5-5',
      tools: [sendEmail],
      rules: enforced ? [limit] : [],
      transport,
      maxTurns: 4,
    });
    if (!enforced) (agent.rules as Rule[]).push(limit);
    return agent;
  };
}
