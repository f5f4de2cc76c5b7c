import Anthropic from '@anthropic-ai/sdk';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { Agent, AnthropicTransport } from '../../src/index.js';
import { openApiTools } from '../../src/openapi/index.js';
import { messageJson } from '../support/anthropicApi.js';
import { messagesApiHoldingToolRules, propertyKeyRefusal } from '../support/messagesApiRules.js';
import { useMockServer } from '../support/mockServer.js';

// Twilio's query parameters `DateSent<`, `StartTime>` and the like: names the Messages API refuses at the top of a
// tool's input_schema. openApiTools shows the model safe names and sends Twilio the names its document gives.
//
// Provenance: the operations below are Twilio's, copied from twilio/twilio-oai, spec/json/twilio_api_v2010.json
// (OpenAPI 3.0.1, info.version 1.0.0; the file's sha256
// 99cae87a6bb1725f71363364cbd30282a13140374b2d5f9bdd5bdfa5d4c8a6d7):
// the parameters' names, places, requirements and schemas as they are there, their descriptions shortened. Of the
// document's 197 operations, 9 have such names: these two (`DateSent<`/`>`; `StartTime<`/`>`, `EndTime<`/`>`) and
// seven with `DateCreated<`/`>`, `DateUpdated<`/`>` or `MessageDate<`/`>` (ListCallRecording, ListMedia, ...).

const accountSid = {
  name: 'AccountSid',
  in: 'path',
  description: 'The SID of the Account associated with the resources.',
  schema: { type: 'string', minLength: 34, maxLength: 34, pattern: '^AC[0-9a-fA-F]{32}$' },
  required: true,
};
const dateTime = (name: string, description: string) => ({
  name,
  in: 'query',
  description,
  schema: { type: 'string', format: 'date-time' },
});
const paging = [
  { name: 'PageSize', in: 'query', schema: { type: 'integer', format: 'int64', minimum: 1, maximum: 1000 } },
  { name: 'Page', in: 'query', schema: { type: 'integer', minimum: 0 } },
  { name: 'PageToken', in: 'query', schema: { type: 'string' } },
];

const TWILIO = {
  openapi: '3.0.1',
  info: { title: 'Twilio - Api', version: '1.0.0' },
  servers: [{ url: 'https://api.twilio.com' }],
  paths: {
    '/2010-04-01/Accounts/{AccountSid}/Messages.json': {
      get: {
        operationId: 'ListMessage',
        description: 'Retrieve a list of Message resources associated with a Twilio Account',
        parameters: [
          accountSid,
          {
            name: 'To',
            in: 'query',
            description: 'Filter by recipient.',
            schema: { type: 'string', format: 'phone-number' },
          },
          {
            name: 'From',
            in: 'query',
            description: 'Filter by sender.',
            schema: { type: 'string', format: 'phone-number' },
          },
          dateTime('DateSent', 'Filter by Message `sent_date`.'),
          dateTime('DateSent<', 'Filter by Message `sent_date`: on and before a specific date.'),
          dateTime('DateSent>', 'Filter by Message `sent_date`: on and after a specific date.'),
          ...paging,
        ],
        responses: { '200': { description: 'OK' } },
      },
    },
    '/2010-04-01/Accounts/{AccountSid}/Calls.json': {
      get: {
        operationId: 'ListCall',
        description: 'Retrieves a collection of calls made to and from your account',
        parameters: [
          accountSid,
          dateTime('StartTime', 'Only include calls that started on this date.'),
          dateTime('StartTime<', 'Only include calls that started before this date.'),
          dateTime('StartTime>', 'Only include calls that started on or after this date.'),
          dateTime('EndTime', 'Only include calls that ended on this date.'),
          dateTime('EndTime<', 'Only include calls that ended before this date.'),
          dateTime('EndTime>', 'Only include calls that ended on or after this date.'),
          ...paging,
        ],
        responses: { '200': { description: 'OK' } },
      },
    },
  },
};

const ACCOUNT = `AC${'0'.repeat(32)}`;
const server = useMockServer();

describe("openApiTools on Twilio's parameters named `DateSent<` and `StartTime>`", () => {
  it('shows the model safe names, keeps required in step, and records which name each is sent as', async () => {
    const { tools, skipped } = await openApiTools(TWILIO);
    expect(skipped).toEqual([]);
    const [messages, calls] = tools;
    expect(Object.keys(messages!.inputSchema.properties as object)).toEqual([
      'AccountSid',
      'To',
      'From',
      'DateSent',
      'DateSent_lt',
      'DateSent_gt',
      'PageSize',
      'Page',
      'PageToken',
    ]);
    expect(messages!.inputSchema.required).toEqual(['AccountSid']);
    expect(messages!.wireNames).toEqual({ DateSent_lt: 'DateSent<', DateSent_gt: 'DateSent>' });
    expect(calls!.wireNames).toEqual({
      StartTime_lt: 'StartTime<',
      StartTime_gt: 'StartTime>',
      EndTime_lt: 'EndTime<',
      EndTime_gt: 'EndTime>',
    });
    expect(propertyKeyRefusal({ tools: tools.map((tool) => tool.definition()) })).toBeUndefined();
  });

  it('passes the Messages API’s rule live (msw), and Twilio receives `DateSent<`', async () => {
    const twilio: URL[] = [];
    server.use(
      http.get('https://api.twilio.com/*', ({ request }) => {
        twilio.push(new URL(request.url));
        return HttpResponse.json({ messages: [] });
      }),
    );
    const input = { AccountSid: ACCOUNT, DateSent_lt: '2008-01-02T00:00:00Z', DateSent_gt: '2008-01-01T00:00:00Z' };
    const api = messagesApiHoldingToolRules([
      () =>
        HttpResponse.json(messageJson([{ type: 'tool_use', id: 'toolu_01', name: 'list_message', input }], 'tool_use')),
      () => HttpResponse.json(messageJson([{ type: 'text', text: 'No messages.' }], 'end_turn')),
    ]);
    server.use(api.handler);
    const { tools } = await openApiTools(TWILIO);
    const agent = new Agent({
      name: 'texts',
      model: 'claude-sonnet-5-5',
      tools,
      transport: new AnthropicTransport({
        client: new Anthropic({ apiKey: 'sk-ant-test-key', maxRetries: 0 }),
        stream: false,
      }),
    });
    const result = await agent.run('Which messages were sent on 1 January 2008?');

    expect(api.bodies.map((body) => propertyKeyRefusal(body as { tools?: unknown[] }))).toEqual([undefined, undefined]);
    expect(result.text).toBe('No messages.');
    expect(result.toolCalls.map((call) => [call.outcome, call.input])).toEqual([['ok', input]]);
    expect(twilio).toHaveLength(1);
    expect(twilio[0]!.pathname).toBe(`/2010-04-01/Accounts/${ACCOUNT}/Messages.json`);
    expect([...twilio[0]!.searchParams]).toEqual([
      ['DateSent<', '2008-01-02T00:00:00Z'],
      ['DateSent>', '2008-01-01T00:00:00Z'],
    ]);
  });
});
