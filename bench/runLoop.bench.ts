import { runLegate } from './loop/legateLoop.js';
import { runOpenAiAgents } from './loop/openAiAgentsLoop.js';
import { TURNS } from './loop/scenario.js';
import { runVercel } from './loop/vercelLoop.js';
import { measureEach } from './harness.js';

/**
 * The run loop's own cost per turn: the same ten-turn, three-tool conversation (bench/loop/scenario.ts)
 * against a scripted model in legate, the Vercel AI SDK and OpenAI Agents JS, in this one process.
 * test/bench/runLoop.test.ts checks that the three make the same calls with the same inputs and outputs.
 */
export async function benchRunLoop(): Promise<void> {
  const [legate, vercel, openAi] = await measureEach([
    { name: 'legate Agent + ScriptedTransport', operation: () => runLegate() },
    { name: 'Vercel AI SDK generateText + mock', operation: () => runVercel() },
    { name: 'OpenAI Agents JS Runner + scripted', operation: () => runOpenAiAgents() },
  ]);
  const perTurn = (opsPerSecond: number) => (1e6 / opsPerSecond / TURNS).toFixed(1);
  console.log(
    `Run loop, per turn: ${TURNS}-turn tool loop (3 tools, zod-validated inputs), scripted model, no network`,
  );
  for (const { name, opsPerSecond } of [legate!, vercel!, openAi!])
    console.log(`  ${name.padEnd(36)} ${perTurn(opsPerSecond).padStart(8)} µs/turn (CPU)`);
  const ratio = (anchor: number) => (anchor / legate!.opsPerSecond).toFixed(2);
  console.log(
    `  ratio (legate's cost / anchor's) ${ratio(vercel!.opsPerSecond)}x the Vercel AI SDK, ` +
      `${ratio(openAi!.opsPerSecond)}x OpenAI Agents JS`,
  );
}
