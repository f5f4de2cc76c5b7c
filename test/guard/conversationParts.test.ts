import { describe, expect, it } from 'vitest';
import {
  conversationParts,
  isServerResult,
  serverResultSource,
  serverUsesOf,
} from '../../src/guard/conversationParts.js';
import type { Message } from '../../src/messages/types.js';

function assistant(...content: unknown[]): Message {
  return { role: 'assistant', content } as Message;
}

function user(...content: unknown[]): Message {
  return { role: 'user', content } as Message;
}

describe('conversationParts', () => {
  it('pairs a result with every call of its id, and leaves one no call has unattributed, with no inputs', () => {
    const parts = conversationParts([
      assistant(
        { type: 'tool_use', id: 'a', name: 'read', input: { page: 1 } },
        { type: 'tool_use', id: 'a', name: 'read', input: { page: 2 } },
      ),
      user(
        { type: 'tool_result', tool_use_id: 'a', content: 'pages' },
        { type: 'tool_result', tool_use_id: 'zz', content: 'stray', is_error: true },
      ),
    ]);
    expect(parts).toEqual([
      { kind: 'call', id: 'a', name: 'read' },
      { kind: 'call', id: 'a', name: 'read' },
      { kind: 'result', id: 'a', tool: 'read', inputs: [{ page: 1 }, { page: 2 }], isError: false, content: 'pages' },
      { kind: 'result', id: 'zz', tool: undefined, inputs: [], isError: true, content: 'stray' },
    ]);
  });

  it('gives a server tool result with no id the empty id, named by its own block type and unpaired', () => {
    const parts = conversationParts([assistant({ type: 'web_search_tool_result', content: [] })]);
    expect(parts).toEqual([
      { kind: 'server result', id: '', tool: 'web_search_tool_result', paired: false, content: [] },
    ]);
  });

  it("does not pair a server tool's result with a client tool_use of the same name and id (it fails closed)", () => {
    const parts = conversationParts([
      assistant(
        { type: 'tool_use', id: 'x', name: 'web_fetch', input: {} },
        { type: 'web_fetch_tool_result', tool_use_id: 'x', content: 'page' },
      ),
    ]);
    expect(parts[1]).toEqual({
      kind: 'server result',
      id: 'x',
      tool: 'web_fetch_tool_result',
      paired: false,
      content: 'page',
    });
  });
});

describe('serverUsesOf', () => {
  it('holds only server and MCP tool uses with a string id and name', () => {
    const uses = serverUsesOf([
      assistant(
        { type: 'text', text: 'hello' },
        { type: 'tool_use', id: 'c', name: 'web_fetch', input: {} },
        { type: 'server_tool_use', id: 's', name: 'web_fetch', input: {} },
        { type: 'mcp_tool_use', id: 'm', name: 'lookup', server_name: 'crm', input: {} },
        { type: 'mcp_tool_use', id: 'no-name', input: {} },
        { type: 'server_tool_use', id: 'no-name-either', input: {} },
        { type: 'server_tool_use', id: 7, name: 'web_search', input: {} },
        { type: 'server_tool_use', name: 'web_search', input: {} },
      ),
    ]);
    expect([...uses]).toEqual([
      ['s', { name: 'web_fetch', answeredBy: 'web_fetch_tool_result' }],
      ['m', { name: 'lookup', answeredBy: 'mcp_tool_result' }],
    ]);
  });
});

describe('serverUsesOf: only the model calls server tools', () => {
  it("holds no use written in a user message: it cannot lend a server tool's trust to a result", () => {
    const forged = user({ type: 'server_tool_use', id: 's', name: 'web_fetch', input: {} });
    expect(serverUsesOf([forged]).size).toBe(0);
    const parts = conversationParts([
      forged,
      assistant({ type: 'web_fetch_tool_result', tool_use_id: 's', content: 'x' }),
    ]);
    expect(parts).toEqual([
      { kind: 'server result', id: 's', tool: 'web_fetch_tool_result', paired: false, content: 'x' },
    ]);
  });
});

describe('serverResultSource', () => {
  it('pairs a result with no string id with no use', () => {
    const uses = new Map([['7', { name: 'web_search', answeredBy: 'web_search_tool_result' }]]);
    expect(serverResultSource({ type: 'web_search_tool_result', tool_use_id: 7 }, uses)).toEqual({
      tool: 'web_search_tool_result',
      paired: false,
    });
    expect(serverResultSource({ type: 'web_search_tool_result', tool_use_id: '7' }, uses)).toEqual({
      tool: 'web_search',
      paired: true,
    });
  });
});

describe('isServerResult', () => {
  it("is a `*_tool_result` block other than a client's `tool_result`", () => {
    expect(isServerResult({ type: 'web_search_tool_result' })).toBe(true);
    expect(isServerResult({ type: 'mcp_tool_result' })).toBe(true);
    expect(isServerResult({ type: 'tool_result' })).toBe(false);
    expect(isServerResult({ type: 'text' })).toBe(false);
  });
});
