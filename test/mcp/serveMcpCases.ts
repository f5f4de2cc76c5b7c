// What every transport of serveMcp must answer, checked with the official SDK's client.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, expect } from 'vitest';
import { serveMcp, type McpServing } from '../../src/mcp/index.js';
import { echo, forecast, tools } from './fixtures/server-tools.js';

type Result = Awaited<ReturnType<Client['callTool']>>;

/** The text of a result's first content block. */
export function textOf(result: Result): string {
  const first = (result.content as { type: string; text?: string }[])[0]!;
  expect(first.type).toBe('text');
  return first.text!;
}

export async function expectListing(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(['echo', 'forecast', 'explode', 'lookup']);
  const listed = new Map(tools.map((tool) => [tool.name, tool]));
  // The input schema the Messages API is sent, the description, the title, the annotations as MCP's hints.
  expect(listed.get('echo')).toEqual({
    name: 'echo',
    title: 'Echo',
    description: 'Repeats a short text back.',
    inputSchema: echo.definition().input_schema,
    annotations: {
      title: 'Echo',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  });
  expect(listed.get('forecast')!.outputSchema).toEqual(forecast.outputSchema);
  expect(listed.get('explode')!.annotations).toEqual({
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  });
}

export async function expectValidCall(client: Client): Promise<void> {
  const result = await client.callTool({ name: 'echo', arguments: { text: 'hi', times: 2 } });
  expect(result).toEqual({ content: [{ type: 'text', text: 'hihi' }] });
}

export async function expectRefusedArgument(client: Client): Promise<void> {
  const sent = 'a text much too long for echo';
  const result = await client.callTool({ name: 'echo', arguments: { text: sent } });
  const refusal = {
    error: 'invalid_argument',
    argument: 'text',
    code: 'too_long',
    message: "Tool 'echo' argument 'text' must be a string of 1 to 20 characters.",
  };
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toEqual(refusal);
  expect(JSON.parse(textOf(result))).toEqual(refusal);
  expect(JSON.stringify(result)).not.toContain(sent);
}

export async function expectOutputSchemaTool(client: Client): Promise<void> {
  // The client checks structuredContent against the listed outputSchema itself (it throws when they differ).
  const ok = await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
  expect(ok.isError).toBeFalsy();
  expect(ok.structuredContent).toEqual({ city: 'Oslo', celsius: 3 });
  expect(JSON.parse(textOf(ok))).toEqual({ city: 'Oslo', celsius: 3 });
  // A refused argument: text alone, since structured content must match the output schema.
  const refused = await client.callTool({ name: 'forecast', arguments: { city: 'X' } });
  expect(refused.isError).toBe(true);
  expect(refused.structuredContent).toBeUndefined();
  expect(JSON.parse(textOf(refused))).toMatchObject({ error: 'invalid_argument', argument: 'city', code: 'too_short' });
  // A result that breaks the tool's own output schema is the tool's failure, said by class only.
  const broken = await client.callTool({ name: 'forecast', arguments: { city: 'Atlantis' } });
  expect(broken.isError).toBe(true);
  expect(broken.structuredContent).toBeUndefined();
  expect(JSON.parse(textOf(broken))).toEqual({
    error: 'tool_failed',
    tool: 'forecast',
    errorClass: 'ToolOutputError',
    message: "Tool 'forecast' failed with ToolOutputError.",
  });
}

export async function expectFailingTool(client: Client): Promise<void> {
  const result = await client.callTool({ name: 'explode', arguments: {} });
  const failure = {
    error: 'tool_failed',
    tool: 'explode',
    errorClass: 'RangeError',
    message: "Tool 'explode' failed with RangeError.",
  };
  expect(result).toEqual({
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(failure) }],
    structuredContent: failure,
  });
  expect(JSON.stringify(result)).not.toMatch(/secret|sk-live|\/etc|at .*\.ts/);
}

export async function expectToolErrorResult(client: Client): Promise<void> {
  const result = await client.callTool({ name: 'lookup', arguments: { id: 'B-1' } });
  expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'No order B-1; ids look like A-1001.' }] });
}

export async function expectUnknownTool(client: Client): Promise<void> {
  await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({
    code: -32602,
    // The protocol's prefix once: the client's McpError adds it to the message the server sent.
    message:
      'MCP error -32602: Tool "nope" does not exist; the tools available are ' +
      "'echo', 'forecast', 'explode', 'lookup'.",
  });
}

/**
 * For a test file serving over HTTP: `serve` starts the fixture tools' server, and every server and client pushed to
 * `open` is closed after each test, the last opened first.
 */
export function useHttpServing() {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const closable of open.splice(0).reverse()) await closable.close();
  });
  const serve = async (options: Partial<Parameters<typeof serveMcp>[0]> = {}): Promise<McpServing> => {
    const serving = await serveMcp({ tools, transport: 'http', ...options });
    open.push(serving);
    return serving;
  };
  return { open, serve };
}
