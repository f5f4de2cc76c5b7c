import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../src/index.js';
import { CAPTURES, sdkFinalMessage, sendThroughTransport } from '../../bench/stream/streamScenario.js';

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
      // What the listener was told adds up to each block's text, thinking and tool input.
      sdk.content.forEach((block, index) => {
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
    });
  }
});
