// Runs the agent fixture (test/fixtures/agent-sdk/agent.mjs) once against the stand-in and writes what the
// SDK's binary sent: `npx tsx test/support/agentSdk/captureAgentSdk.ts <out.json> [ENV=value ...]`.
// CAPTURE_CWD, CAPTURE_HOME name the agent's working folder and HOME (fresh temporary folders by default);
// CAPTURE_REFUSE=400 answers every /v1/messages request 400 with x-should-retry: false, =404 with 404; =500 and
// =529 answer the first two 500 / 529 (x-should-retry: true, retry-after-ms: 10), the rest as scripted.
// CAPTURE_TIME=1 runs the binary under /usr/bin/time -v (its peak memory goes to the output's `time` field).
// CAPTURE_SCRIPT=toolsearch scripts a ToolSearch call first, =parallel both calls in one response.
// CAPTURE_PROXY=1 makes the stand-in the HTTPS proxy too, to log connections to other hosts.
import { writeFileSync } from 'node:fs';
import type { ErrorAnswer, LoggedRequest, ScriptedTurn } from './agentSdkStandIn.js';
import { PARALLEL_PAYMENT_SCRIPT, PAYMENT_SCRIPT, TOOL_SEARCH_PAYMENT_SCRIPT } from './paymentScript.js';
import { runAgentFixture } from './runAgentFixture.js';

const SCRIPTS: Record<string, ScriptedTurn[]> = {
  payment: PAYMENT_SCRIPT,
  toolsearch: TOOL_SEARCH_PAYMENT_SCRIPT,
  parallel: PARALLEL_PAYMENT_SCRIPT,
};
const [out, ...assignments] = process.argv.slice(2);
if (out === undefined) throw new Error('usage: captureAgentSdk.ts <out.json> [ENV=value ...]');
const env = Object.fromEntries(assignments.map((pair) => [pair.split('=')[0], pair.split('=').slice(1).join('=')]));

let refusedTransient = 0;
function refuse(request: LoggedRequest): ErrorAnswer | undefined {
  if (!request.url.startsWith('/v1/messages')) return undefined;
  const status = Number(process.env.CAPTURE_REFUSE);
  if (status === 400) {
    const body = { type: 'error', error: { type: 'invalid_request_error', message: 'refused by the stand-in' } };
    return { status, headers: { 'x-should-retry': 'false' }, body };
  }
  if (status === 404)
    return { status, body: { type: 'error', error: { type: 'not_found_error', message: 'no such path' } } };
  if ((status === 500 || status === 529) && refusedTransient < 2) {
    refusedTransient += 1;
    const body = { type: 'error', error: { type: status === 529 ? 'overloaded_error' : 'api_error', message: 'x' } };
    return { status, headers: { 'x-should-retry': 'true', 'retry-after-ms': '10' }, body };
  }
  return undefined;
}

const run = await runAgentFixture({
  script: SCRIPTS[process.env.CAPTURE_SCRIPT ?? 'payment'] ?? PAYMENT_SCRIPT,
  refuse,
  env,
  ...(process.env.CAPTURE_CWD === undefined ? {} : { cwd: process.env.CAPTURE_CWD }),
  ...(process.env.CAPTURE_HOME === undefined ? {} : { home: process.env.CAPTURE_HOME }),
  proxy: process.env.CAPTURE_PROXY === '1',
  timed: process.env.CAPTURE_TIME === '1',
});
writeFileSync(out, `${JSON.stringify(run, null, 2)}\n`);
process.stdout.write(`exit ${run.exitCode}, ${run.wallMs} ms, ${run.requests.length} requests -> ${out}\n`);
