import { measureEach, type Measurement } from './harness.js';
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
  const perEvent = (opsPerSecond: number) => 1e6 / opsPerSecond / events;
  console.log(`Streaming, per SSE event: ${CAPTURES.length} recorded streams, ${events} events (no network)`);
  for (const { name, opsPerSecond } of [ours!, agent!, anchor!])
    console.log(`  ${name.padEnd(42)} ${perEvent(opsPerSecond).toFixed(2).padStart(8)} µs/event (CPU)`);
  const overhead = (measured: Measurement) =>
    (perEvent(measured.opsPerSecond) - perEvent(anchor!.opsPerSecond)).toFixed(2);
  const ratio = (measured: Measurement) => (anchor!.opsPerSecond / measured.opsPerSecond).toFixed(2);
  console.log(
    `  ratio (legate's cost / the SDK's) ${ratio(ours!)}x for the transport ` +
      `(${overhead(ours!)} µs/event of its own), ` +
      `${ratio(agent!)}x for agent.stream() (${overhead(agent!)} µs/event)`,
  );
}
