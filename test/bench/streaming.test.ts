import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import type { AgentStreamEvent, StreamEvent } from '../../src/index.js';
import {
  CAPTURES,
  sdkFinalMessage,
  sendThroughTransport,
  streamThroughAgent,
} from '../../bench/stream/streamScenario.js';

/**
 * The streaming bench times legate's streaming path beside the SDK's own parse of the same recorded
 * SSE; the comparison is only honest if both read every event to the same message, and legate's
 * listener is told the streamed text as it arrives.
 */
describe('streaming bench scenario', () => {
  it('streams several real recordings, covering text, thinking, tool_use and server tool blocks', () => {
    const types = new Set(CAPTURES.flatMap((capture) => capture.blockTypes));
    for (const type of ['text', 'thinking', 'tool_use', 'server_tool_use']) expect(types).toContain(type);
    for (const capture of CAPTURES) expect(capture.events).toBeGreaterThan(0);
  });

  for (const capture of CAPTURES) {
    it(`${capture.file}: legate's transport ends on the message the SDK parses, and told every delta`, async () => {
      const sdk = await sdkFinalMessage(capture);
      const events: StreamEvent[] = [];
      const response = await sendThroughTransport(capture, (event) => events.push(event));
      expect(sdk.content.map((block) => block.type)).toEqual(capture.blockTypes);
      expect(response.id).toBe(sdk.id);
      expect(response.stop_reason).toBe(sdk.stop_reason);
      expect(response.content).toEqual(sdk.content);
      expectToldInFull(sdk.content, events);
    });
  }

  for (const capture of CAPTURES) {
    it(`${capture.file}: agent.stream() yields the streamed deltas, ends on the message the SDK parses`, async () => {
      const sdk = await sdkFinalMessage(capture);
      const events: AgentStreamEvent[] = [];
      const result = await streamThroughAgent(capture, (event) => events.push(event));
      expect(result.turns).toBe(1);
      expect(result.responses[0]!.content).toEqual(sdk.content);
      expect(events.at(-1)).toEqual({ type: 'result', result });
      const streamed = events.flatMap((event) => (event.type === 'stream' ? [event.event] : []));
      expectToldInFull(sdk.content, streamed);
      const calls = sdk.content.filter((block) => block.type === 'tool_use').length;
      expect(events.filter((event) => event.type === 'tool_finished')).toHaveLength(calls);
    });
  }
});

/** What a listener was told adds up to each block's text, thinking and tool input. */
function expectToldInFull(content: Anthropic.Messages.ContentBlock[], events: StreamEvent[]): void {
  content.forEach((block, index) => {
    const told = (type: string, field: string) =>
      events
        .filter((event) => event.type === type && event.index === index)
        .map((event) => (event as unknown as Record<string, string>)[field])
        .join('');
    if (block.type === 'text') expect(told('text_delta', 'text')).toBe(block.text);
    if (block.type === 'thinking') expect(told('thinking_delta', 'thinking')).toBe(block.thinking);
    if (block.type === 'tool_use')
      expect(JSON.parse(told('input_json_delta', 'partialJson') || '{}')).toEqual(block.input);
  });
}
