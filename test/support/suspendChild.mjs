// A process that suspends a run into a store (then waits to be killed), resumes one from it
// (possibly stopping inside the approved tool, to be killed there), or recovers a resume that died.
// Used by test/store/durability.test.ts: argv = [mode, store kind (sqlite | file | postgres), store path, effects
// file, run id]; a postgres store's path is its connection string, then `#` and its schema. JavaScript, run by plain
// node (no TypeScript loader to start), importing legate by its package name: the built package, as installed.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { Agent, FileStateStore, ScriptedTransport, SuspensionError, defineTool, reply } from 'legate';
import { PostgresStateStore } from 'legate/postgres';
import { SqliteStateStore } from 'legate/sqlite';

const [mode, kind, path, effects, runId] = process.argv.slice(2);
function open() {
  if (kind === 'sqlite') return new SqliteStateStore(path);
  if (kind === 'file') return new FileStateStore(path);
  const at = path.lastIndexOf('#');
  return new PostgresStateStore(path.slice(0, at), { schema: path.slice(at + 1) });
}
const store = open();
const hold = () => new Promise(() => setInterval(() => undefined, 1000)); // wait here until killed

const wire = defineTool({
  name: 'wire_money',
  description: 'Wires money.',
  privileged: true,
  input: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
  run: async ({ amount }, ctx) => {
    if (mode === 'resume-die-before-effect') {
      console.log('STARTED');
      await hold();
    }
    // The bank applies a transfer once per idempotency key, as payment APIs do.
    const applied = existsSync(effects) && readFileSync(effects, 'utf8').includes(`key ${ctx.idempotencyKey} `);
    if (!applied) appendFileSync(effects, `wired ${amount} key ${ctx.idempotencyKey} by process ${process.pid}\n`);
    if (mode === 'resume-die-after-effect') {
      console.log('EFFECT');
      await hold();
    }
    return `Wired $${amount}.`;
  },
});
const agent = (script) =>
  new Agent({
    name: 'treasurer',
    model: 'claude-haiku-5-5',
    tools: [wire],
    transport: new ScriptedTransport(script),
    approvalRequired: (tool) => tool.privileged,
  });

try {
  if (mode === 'suspend') {
    const result = await agent([reply.toolUse('wire_money', { amount: 250 })]).run('Wire $250 to the supplier.');
    await store.save(result.suspension);
    console.log(`SUSPENDED ${result.suspension.runId}`);
    await hold();
  } else if (mode.startsWith('resume')) {
    const suspension = await store.load(runId);
    const result = await agent([reply.text('The money is on its way.')]).resume(suspension, { approve: true, store });
    console.log(`DONE ${result.stopReason} ${result.text}`);
  } else {
    const claimed = await store.list({ status: 'claimed' });
    const suspension = await store.load(claimed[0]);
    const result = await agent([reply.text('Checking.')]).recover(suspension, {
      store,
      staleAfterMs: 0,
      rerun: mode === 'recover-rerun' ? ['wire_money'] : [],
    });
    const call = result.toolCalls[0];
    console.log(
      `RECOVERED ${result.stopReason} ${call.outcome} ` +
        `${call.error?.error === 'tool_failed' ? call.error.errorClass : '-'}`,
    );
  }
} catch (error) {
  if (!(error instanceof SuspensionError)) throw error;
  console.log(`REFUSED ${error.code}`);
}
await store.close?.();
