import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { Agent, AnthropicTransport, ScriptedTransport, defineTool, loadTrajectory, reply, runTrajectory, toModelResponse, type Transport } from '../src/index.js';

const FILES = 1000;
const TURNS = 10;
/** The HTTP-level anchor is slower; a subset gives its rate without a long wait. */
const ANCHOR_FILES = 100;

const lookup = defineTool({
  name: 'lookup_record',
  description: 'Looks up a record by id.',
  input: { type: 'object', properties: { id: { type: 'integer', minimum: 0 } }, required: ['id'] },
  run: ({ id }) => ({ id, status: id % 2 === 0 ? 'open' : 'closed', owner: `user-${id % 7}`, notes: 'Checked and updated.' }),
});
const agent = (transport: Transport) => new Agent({ name: 'bench', model: 'claude-haiku-5-5', system: 'Look records up.', tools: [lookup], transport, maxTurns: TURNS });

/** Nine tool turns and a final answer: a ten-turn conversation. */
function script(seed: number): ScriptedTransport {
  const steps = Array.from({ length: TURNS - 1 }, (_, i) => reply.toolUse('lookup_record', { id: seed * 10 + i }, { text: `Checking record ${seed * 10 + i}.` }));
  return new ScriptedTransport([...steps, reply.text(`All ${TURNS - 1} records checked for batch ${seed}.`)]);
}

async function generateCorpus(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (let i = 0; i < FILES; i++) {
    const file = join(dir, `run-${String(i).padStart(4, '0')}.yaml`);
    await runTrajectory({ file, agent, input: `Check batch ${i}.`, mode: 'record', transport: () => script(i) });
    files.push(file);
  }
  return files;
}

async function timeIt(work: () => Promise<void>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

export async function benchReplay(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'legate-bench-'));
  try {
    const files = await generateCorpus(dir);
    // Warm up both paths once, so neither pays for first-time compilation.
    await runTrajectory({ file: files[0]!, agent, mode: 'replay' });

    const legateSeconds = await timeIt(async () => {
      for (const file of files) await runTrajectory({ file, agent, mode: 'replay' });
    });

    const server = setupServer();
    server.listen({ onUnhandledRequest: 'error' });
    const client = new Anthropic({ apiKey: 'sk-ant-bench', maxRetries: 0 });
    const replayOverHttp = async (file: string) => {
      const trajectory = loadTrajectory(file);
      let turn = 0;
      server.use(http.post('https://api.anthropic.com/v1/messages', () => HttpResponse.json(toModelResponse(trajectory.turns[turn++]!.response))));
      await agent(new AnthropicTransport({ client, stream: false })).run(trajectory.input);
    };
    await replayOverHttp(files[0]!);
    const anchorSeconds = await timeIt(async () => {
      for (const file of files.slice(0, ANCHOR_FILES)) await replayOverHttp(file);
    });
    server.close();

    const ours = FILES / legateSeconds;
    const anchor = ANCHOR_FILES / anchorSeconds;
    const format = (n: number) => Math.round(n).toLocaleString('en-US');
    console.log(`Replay, ${FILES} trajectories of ${TURNS} turns (read, parse, check every request, run the tools)`);
    console.log(`  ${'legate replay'.padEnd(34)} ${format(ours).padStart(10)} files/s ${format(ours * TURNS).padStart(10)} turns/s`);
    console.log(`  ${`SDK over msw (${ANCHOR_FILES} files)`.padEnd(34)} ${format(anchor).padStart(10)} files/s ${format(anchor * TURNS).padStart(10)} turns/s`);
    console.log(`  ratio ${(ours / anchor).toFixed(1)}x  (target >= 10x: ${ours / anchor >= 10 ? 'met' : 'NOT met'})`);
    console.log(`  ${FILES} files in ${legateSeconds.toFixed(2)} s  (target < 2 s: ${legateSeconds < 2 ? 'met' : 'NOT met'})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
