import { measureEach } from './harness.js';
import { CAPTURES, sdkFinalMessage, sendThroughTransport } from './stream/streamScenario.js';

/**
 * The streaming path's cost per SSE event beside the SDK's own: the same recorded streams
 * (bench/stream/streamScenario.ts), read by the SDK's `messages.stream(...).finalMessage()` (the anchor)
 * and by legate's AnthropicTransport, which reads them through that same helper, tells a listener each
 * text, thinking and tool-input delta, and checks the final message. The difference is legate's own overhead.
 * test/bench/streaming.test.ts checks that both end on the same message.
 */
export async function benchStreaming(): Promise<void> {
  const events = CAPTURES.reduce((sum, capture) => sum + capture.events, 0);
  let told = 0;
  const [ours, anchor] = await measureEach([
    {
      name: 'legate AnthropicTransport.send + listener',
      operation: async () => {
        for (const capture of CAPTURES) await sendThroughTransport(capture, () => told++);
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
  for (const { name, opsPerSecond } of [ours!, anchor!])
    console.log(`  ${name.padEnd(42)} ${perEvent(opsPerSecond).toFixed(2).padStart(8)} µs/event (CPU)`);
  const overhead = perEvent(ours!.opsPerSecond) - perEvent(anchor!.opsPerSecond);
  console.log(
    `  ratio ${(anchor!.opsPerSecond / ours!.opsPerSecond).toFixed(2)}x the SDK's cost ` +
      `(legate's own overhead ${overhead.toFixed(2)} µs/event)`,
  );
}
