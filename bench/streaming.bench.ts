import { measureEach, report, type Measurement } from './harness.js';
import { CAPTURES, sdkFinalMessage, sendThroughTransport, streamThroughAgent } from './stream/streamScenario.js';

/**
 * The streaming path's cost per SSE event beside the SDK's own: the same recorded streams
 * (bench/stream/streamScenario.ts), read by the SDK's `messages.stream(...).finalMessage()` (the anchor)
 * and by legate's AnthropicTransport (today built on that same helper), which tells a listener each
 * text, thinking and tool-input delta and checks the final message. The difference is legate's own overhead.
 * Then the whole run read as a stream: `agent.stream()` over the same transport, one turn per recording
 * (the tool_use recording runs its tool), every event read by the caller.
 * test/bench/streaming.test.ts checks that all three end on the same message.
 */
export async function benchStreaming(): Promise<void> {
  const events = CAPTURES.reduce((sum, capture) => sum + capture.events, 0);
  let told = 0;
  const [ours, agent, anchor] = await measureEach([
    {
      name: 'legate AnthropicTransport.send + listener',
      operation: async () => {
        for (const capture of CAPTURES) await sendThroughTransport(capture, () => told++);
        return told;
      },
    },
    {
      name: 'legate agent.stream(), every event read',
      operation: async () => {
        for (const capture of CAPTURES) await streamThroughAgent(capture, () => told++);
        return told;
      },
    },
    {
      name: 'SDK messages.stream().finalMessage()',
      operation: async () => {
        for (const capture of CAPTURES) await sdkFinalMessage(capture);
        return true;
      },
    },
  ]);
  console.log(
    `Streaming, CPU time per SSE event: ${CAPTURES.length} recorded streams, ${events} events (no network), ` +
      'median (min-max) of 7 alternating rounds',
  );
  const scale = { unit: 'µs/event', divide: events, digits: 2 };
  const overhead = (measured: Measurement) => ((measured.median - anchor!.median) / events).toFixed(2);
  report(
    {
      section: 'streaming',
      line: "the transport beside the SDK's own parsing",
      ours: ours!,
      anchor: anchor!,
      scale,
      note: `${overhead(ours!)} µs/event of its own`,
    },
    {
      section: 'streaming',
      line: "agent.stream() beside the SDK's own parsing",
      ours: agent!,
      anchor: anchor!,
      scale,
      note: `${overhead(agent!)} µs/event of its own`,
    },
  );
}
