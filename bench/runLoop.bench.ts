import { longScript, runLegate, runLegateBare } from './loop/legateLoop.js';
import { runOpenAiAgents } from './loop/openAiAgentsLoop.js';
import { TURNS } from './loop/scenario.js';
import { runVercel } from './loop/vercelLoop.js';
import { measureEach, type Measurement } from './harness.js';

/**
 * The run loop's own cost per turn: the same ten-turn, three-tool conversation (bench/loop/scenario.ts)
 * against a scripted model in legate, the Vercel AI SDK and OpenAI Agents JS, in this one process.
 * legate is measured twice: with ScriptedTransport, the model for tests (it keeps a deep copy of every
 * request and tells each answer's stream events), and with the same responses served bare, as the
 * anchors' scripted models serve theirs: the loop's own cost.
 * test/bench/runLoop*.test.ts check that all of them make the same calls with the same inputs and outputs,
 * and that exactly the inputs the schema accepts reach a tool body in each.
 */
export async function benchRunLoop(): Promise<void> {
  const [legate, bare, vercel, openAi] = await measureEach([
    { name: 'legate Agent + ScriptedTransport', operation: () => runLegate() },
    { name: 'legate Agent, responses served bare', operation: () => runLegateBare() },
    { name: 'Vercel AI SDK generateText + mock', operation: () => runVercel() },
    { name: 'OpenAI Agents JS Runner + scripted', operation: () => runOpenAiAgents() },
  ]);
  const perTurn = (opsPerSecond: number) => (1e6 / opsPerSecond / TURNS).toFixed(1);
  console.log(
    `Run loop, per turn: ${TURNS}-turn tool loop (3 tools, zod-validated inputs), scripted model, no network`,
  );
  for (const { name, opsPerSecond } of [legate!, bare!, vercel!, openAi!])
    console.log(`  ${name.padEnd(36)} ${perTurn(opsPerSecond).padStart(8)} µs/turn (CPU)`);
  const ratios = (ours: Measurement) =>
    `${(vercel!.opsPerSecond / ours.opsPerSecond).toFixed(2)}x the Vercel AI SDK, ` +
    `${(openAi!.opsPerSecond / ours.opsPerSecond).toFixed(2)}x OpenAI Agents JS`;
  console.log(`  ratio (legate's cost / anchor's) with ScriptedTransport ${ratios(legate!)}`);
  console.log(`  ratio (legate's cost / anchor's) the loop alone          ${ratios(bare!)}`);
  const scripted = bare!.opsPerSecond / legate!.opsPerSecond;
  console.log(
    `  ScriptedTransport's cost / the bare transport's         ${scripted.toFixed(2)}x ` +
      `(goal <= 1.5x: ${scripted <= 1.5 ? 'met' : 'NOT met'})`,
  );
  await benchLongRuns();
}

/**
 * The cost per turn as the conversation grows: the scenario's tool turns repeated to 10, 50 and 200 model turns,
 * with ScriptedTransport and with the bare transport. ScriptedTransport copies and measures each message once, so
 * its cost per turn stays about flat as the conversation grows, as the bare transport's does.
 */
async function benchLongRuns(): Promise<void> {
  const lengths = [10, 50, 200];
  const scripts = lengths.map((turns) => longScript(turns));
  const measured = await measureEach(
    scripts.flatMap((script) => [
      { name: 'scripted', operation: () => runLegate(script) },
      { name: 'bare', operation: () => runLegateBare(script) },
    ]),
    { rounds: 5, roundMs: 400 },
  );
  console.log('Run loop, per turn as the conversation grows (the same tool turns repeated)');
  console.log(`  ${'turns'.padStart(6)} ${'ScriptedTransport'.padStart(18)} ${'bare'.padStart(12)}   ratio`);
  for (const [i, turns] of lengths.entries()) {
    const [scripted, bare] = [measured[2 * i]!, measured[2 * i + 1]!];
    const perTurn = (m: Measurement) => 1e6 / m.opsPerSecond / turns;
    console.log(
      `  ${String(turns).padStart(6)} ${`${perTurn(scripted).toFixed(1)} µs`.padStart(18)} ` +
        `${`${perTurn(bare).toFixed(1)} µs`.padStart(12)}   ${(perTurn(scripted) / perTurn(bare)).toFixed(2)}x`,
    );
  }
}
