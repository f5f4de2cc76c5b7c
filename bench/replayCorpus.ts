import { join } from 'node:path';
import { Agent, ScriptedTransport, defineTool, reply, runTrajectory, type Transport } from 'legate';

/** The replay benchmarks' corpus: FILES recorded runs of TURNS turns each, one agent. */
export const FILES = 1000;
export const TURNS = 10;

const lookup = defineTool({
  name: 'lookup_record',
  description: 'Looks up a record by id.',
  input: { type: 'object', properties: { id: { type: 'integer', minimum: 0 } }, required: ['id'] },
  run: ({ id }) => ({
    id,
    status: id % 2 === 0 ? 'open' : 'closed',
    owner: `user-${id % 7}`,
    notes: 'Checked and updated.',
  }),
});

/** The agent of the replay benchmarks' files, allowed `maxTurns` turns (its name, in a config: `bench`). */
export const agentOf = (maxTurns: number) => (transport: Transport) =>
  new Agent({
    name: 'bench',
    model: 'claude-haiku-5-5',
    system: 'Look records up.',
    tools: [lookup],
    transport,
    maxTurns,
  });

/** The agent every file of the corpus is recorded from. */
export const agent = agentOf(TURNS);

/** `turns - 1` tool turns and a final answer (the corpus's files: nine, then the answer). */
function script(seed: number, turns: number): ScriptedTransport {
  const steps = Array.from({ length: turns - 1 }, (_, i) =>
    reply.toolUse('lookup_record', { id: seed * 10 + i }, { text: `Checking record ${seed * 10 + i}.` }),
  );
  return new ScriptedTransport([...steps, reply.text(`All ${turns - 1} records checked for batch ${seed}.`)]);
}

/**
 * Records the corpus into `dir` (run-0000.yaml, ...), `count` files of `turns` turns (the replay bench's: TURNS), each
 * replayed by {@link agentOf}(turns); returns the files' paths.
 */
export async function generateCorpus(dir: string, count = FILES, turns = TURNS): Promise<string[]> {
  const files: string[] = [];
  const recorder = agentOf(turns);
  for (let i = 0; i < count; i++) {
    const file = join(dir, `run-${String(i).padStart(4, '0')}.yaml`);
    const transport = () => script(i, turns);
    await runTrajectory({ file, agent: recorder, input: `Check batch ${i}.`, mode: 'record', transport });
    files.push(file);
  }
  return files;
}
