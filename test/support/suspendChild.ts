// A process that suspends a run into SQLite (then waits to be killed), or resumes one from it.
// Used by test/store/durability.test.ts: argv = [mode, database file, effects file, run id (to resume)].
import { appendFileSync } from 'node:fs';
import { Agent, ScriptedTransport, SqliteStateStore, SuspensionError, defineTool, reply } from '../../src/index.js';

const [mode, database, effects, runId] = process.argv.slice(2) as [string, string, string, string | undefined];
const store = new SqliteStateStore(database);
const wire = defineTool({
  name: 'wire_money',
  description: 'Wires money.',
  privileged: true,
  input: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
  run: ({ amount }) => {
    appendFileSync(effects, `wired ${amount} by process ${process.pid}\n`);
    return `Wired $${amount}.`;
  },
});
const agent = (script: ConstructorParameters<typeof ScriptedTransport>[0]) =>
  new Agent({ name: 'treasurer', model: 'claude-haiku-5-5', tools: [wire], transport: new ScriptedTransport(script), approvalRequired: (tool) => tool.privileged });

if (mode === 'suspend') {
  const result = await agent([reply.toolUse('wire_money', { amount: 250 })]).run('Wire $250 to the supplier.');
  await store.save(result.suspension!);
  console.log(`SUSPENDED ${result.suspension!.runId}`);
  setInterval(() => undefined, 1000); // wait here until killed
} else {
  const suspension = await store.load(runId!);
  try {
    const result = await agent([reply.text('The money is on its way.')]).resume(suspension!, { approve: true, store });
    console.log(`DONE ${result.stopReason} ${result.text}`);
  } catch (error) {
    if (!(error instanceof SuspensionError)) throw error;
    console.log(`REFUSED ${error.code}`);
  }
  store.close();
}
