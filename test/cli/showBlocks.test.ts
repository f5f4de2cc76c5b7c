/**
 * `legate show` on a recording of real responses: a block legate does not type is shown as its
 * type, whether the file keeps it under `block` or (older files) under `server`; a response's
 * usage as reported is shown in words.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { serializeTrajectory, type ModelResponse, type Trajectory } from '../../src/index.js';
import { parseModelResponse } from '../../src/messages/parseModelResponse.js';
import { toRecordedResponse } from '../../src/trajectory/conversation.js';
import { captureIo } from '../support/captureIo.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();

const captured = (name: string): ModelResponse =>
  parseModelResponse(JSON.parse(readFileSync(`test/fixtures/api-captures/${name}.json`, 'utf8')).response.body);

function fileOf(responses: ModelResponse[]): Trajectory {
  return {
    version: 1,
    name: 'real-blocks',
    recordedAt: '2026-11-30T12:00:00.000Z',
    legate: '0.1.0',
    agent: 'assistant',
    model: responses[0]!.model,
    request: { model: responses[0]!.model, maxTokens: 4096 },
    tools: [],
    input: 'Hello',
    turns: responses.map((response) => ({ response: toRecordedResponse(response) })),
    summary: { stopReason: 'end_turn', turns: responses.length, usage: { input: 0, output: 0 } },
  };
}

async function show(text: string): Promise<string[]> {
  const path = join(tempDir(), 'run.yaml');
  writeFileSync(path, text);
  const io = captureIo();
  expect(await main(['show', path], io)).toBe(0);
  return io.stdout.join('\n').split('\n');
}

describe('legate show', () => {
  it('shows each block legate does not type as its type, and server tool requests with the usage', async () => {
    const lines = await show(
      serializeTrajectory(fileOf([captured('pydantic-ai--web-search'), captured('ai-sdk--compaction')])),
    );
    expect(lines.filter((line) => /\[\w+\]$/.test(line)).map((line) => line.replace(/^.*\[/, '['))).toEqual([
      '[server_tool_use]',
      '[web_search_tool_result]',
      '[compaction]',
    ]);
    expect(lines).toContain('         end_turn · 8984 in / 520 out tokens, 1 web search');
  });

  it('shows a server block an older file keeps under `server` the same way', async () => {
    const text = serializeTrajectory(fileOf([captured('pydantic-ai--web-fetch')])).replaceAll(
      '        - block:\n',
      '        - server:\n',
    );
    expect(text).toContain('- server:\n');
    const lines = await show(text);
    expect(
      lines.filter((line) => line.endsWith('[server_tool_use]') || line.endsWith('[web_fetch_tool_result]')),
    ).toHaveLength(2);
  });

  it("shows a tool result's content blocks by their text, or by type and title", async () => {
    const trajectory = fileOf([
      {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-haiku-4-5',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'find_docs', input: { q: 'refunds' } }],
        stop_reason: 'tool_use',
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    ]);
    trajectory.turns[0]!.results = [
      {
        id: 'toolu_1',
        tool: 'find_docs',
        outcome: 'ok',
        content: [
          { type: 'text', text: 'Two documents:' },
          {
            type: 'search_result',
            source: 'https://example.com/refunds',
            title: 'Refund policy',
            content: [{ type: 'text', text: 'Refunds take 5 days.' }],
          },
          { type: 'image', source: { type: 'url', url: 'https://example.com/chart.png' } },
        ],
      },
    ];
    const lines = await show(serializeTrajectory(trajectory));
    expect(lines.find((line) => line.includes('✓ ok'))).toMatch(
      /✓ ok Two documents: \[search_result: Refund policy\] \[image\]$/,
    );
  });
});
