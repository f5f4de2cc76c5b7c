import { longScript, runLegate, runLegateBare } from './loop/legateLoop.js';
import { runOpenAiAgents } from './loop/openAiAgentsLoop.js';
import { TURNS } from './loop/scenario.js';
import { runVercel } from './loop/vercelLoop.js';
import { measureEach, report } from './harness.js';

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
  console.log(
    `Run loop, CPU time per turn: ${TURNS}-turn tool loop (3 tools, zod-validated inputs), scripted model, ` +
      'no network; median (min-max) of 7 alternating rounds',
  );
  const section = 'run loop';
  const scale = { unit: 'µs/turn', divide: TURNS, digits: 1 };
  report(
    { section, line: 'with ScriptedTransport, beside the Vercel AI SDK', ours: legate!, anchor: vercel!, scale },
    { section, line: 'with ScriptedTransport, beside OpenAI Agents JS', ours: legate!, anchor: openAi!, scale },
    { section, line: 'the loop alone, beside the Vercel AI SDK', ours: bare!, anchor: vercel!, scale },
    { section, line: 'the loop alone, beside OpenAI Agents JS', ours: bare!, anchor: openAi!, scale },
    {
      section,
      line: 'ScriptedTransport beside the bare transport',
      ours: legate!,
      anchor: bare!,
      scale,
      goal: { most: 1.5, label: 'goal <= 1.5x' },
    },
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
  console.log(
    'Run loop, CPU time per turn as the conversation grows (the same tool turns repeated), ' +
      'median (min-max) of 5 rounds',
  );
  for (const [i, turns] of lengths.entries()) {
    report({
      section: 'run loop',
      line: `${turns} turns: ScriptedTransport beside the bare transport`,
      ours: measured[2 * i]!,
      anchor: measured[2 * i + 1]!,
      scale: { unit: 'µs/turn', divide: turns, digits: 1 },
    });
  }
}
