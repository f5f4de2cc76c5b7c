// Runs the agent fixture (test/fixtures/agent-sdk/agent.mjs) once against the stand-in and writes what the
// SDK's binary sent: `npx tsx test/support/agentSdk/captureAgentSdk.ts <out.json> [ENV=value ...]`.
// CAPTURE_CWD, CAPTURE_HOME name the agent's working folder and HOME (fresh temporary folders by default);
// CAPTURE_REFUSE=400 answers every /v1/messages request 400 with x-should-retry: false, =404 with 404.
// CAPTURE_TIME=1 runs the binary under /usr/bin/time -v (its peak memory goes to the output's `time` field).
// CAPTURE_SCRIPT=toolsearch scripts a ToolSearch call first, =parallel both calls in one response.
// CAPTURE_PROXY=1 makes the stand-in the HTTPS proxy too, to log connections to other hosts.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type ScriptedTurn, startAgentSdkStandIn } from './agentSdkStandIn.js';
import { PARALLEL_PAYMENT_SCRIPT, PAYMENT_SCRIPT, TOOL_SEARCH_PAYMENT_SCRIPT } from './paymentScript.js';

const SCRIPTS: Record<string, ScriptedTurn[]> = {
  payment: PAYMENT_SCRIPT,
  toolsearch: TOOL_SEARCH_PAYMENT_SCRIPT,
  parallel: PARALLEL_PAYMENT_SCRIPT,
};
const [out, ...assignments] = process.argv.slice(2);
if (out === undefined) throw new Error('usage: captureAgentSdk.ts <out.json> [ENV=value ...]');
const extraEnv = Object.fromEntries(
  assignments.map((pair) => [pair.split('=')[0], pair.split('=').slice(1).join('=')]),
);
const scratch = mkdtempSync(join(tmpdir(), 'agentsdk-'));
const cwd = process.env.CAPTURE_CWD ?? mkdtempSync(join(tmpdir(), 'agentsdk-cwd-'));
const home = process.env.CAPTURE_HOME ?? mkdtempSync(join(tmpdir(), 'agentsdk-home-'));
const effects = join(scratch, 'effects.jsonl');
writeFileSync(effects, '');

const standIn = await startAgentSdkStandIn({
  script: SCRIPTS[process.env.CAPTURE_SCRIPT ?? 'payment'] ?? PAYMENT_SCRIPT,
  refuse: (request) => {
    if (process.env.CAPTURE_REFUSE === '400' && request.url.startsWith('/v1/messages')) {
      const body = { type: 'error', error: { type: 'invalid_request_error', message: 'refused by the stand-in' } };
      return { status: 400, headers: { 'x-should-retry': 'false' }, body };
    }
    if (process.env.CAPTURE_REFUSE === '404' && request.url.startsWith('/v1/messages')) {
      return { status: 404, body: { type: 'error', error: { type: 'not_found_error', message: 'no such path' } } };
    }
    return undefined;
  },
});
const timeFile = join(scratch, 'time.txt');
let wrapper: string | undefined;
if (process.env.CAPTURE_TIME === '1') {
  wrapper = join(scratch, 'claude-timed');
  const binary = resolve('node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude');
  writeFileSync(wrapper, `#!/bin/sh\nexec /usr/bin/time -v -o ${timeFile} ${binary} "$@"\n`);
  chmodSync(wrapper, 0o755);
}
const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: home,
  ANTHROPIC_BASE_URL: standIn.url,
  ANTHROPIC_API_KEY: 'sk-ant-api03-standin-key',
  AGENT_EFFECTS_FILE: effects,
  AGENT_CWD: cwd,
  ...(wrapper === undefined ? {} : { AGENT_CLAUDE_EXECUTABLE: wrapper }),
  ...(process.env.CAPTURE_PROXY === '1' ? { HTTPS_PROXY: standIn.url, NO_PROXY: '127.0.0.1' } : {}),
  ...extraEnv,
};
const started = performance.now();
const child = spawn(process.execPath, [resolve('test/fixtures/agent-sdk/agent.mjs')], { env, cwd });
let stdout = '';
let stderr = '';
child.stdout.on('data', (chunk: Buffer) => {
  stdout += chunk.toString('utf8');
});
child.stderr.on('data', (chunk: Buffer) => {
  stderr += chunk.toString('utf8');
});
const code = await new Promise<number | null>((done) => child.on('close', done));
const wallMs = Math.round(performance.now() - started);
await standIn.close();
let time: string | undefined;
try {
  time = readFileSync(timeFile, 'utf8');
} catch {}
const record = {
  env: extraEnv,
  cwd,
  home,
  baseUrl: standIn.url,
  exitCode: code,
  wallMs,
  stdout: stdout.split('\n').filter((line) => line !== ''),
  stderr,
  effects: readFileSync(effects, 'utf8'),
  time,
  requests: standIn.requests,
};
writeFileSync(out, `${JSON.stringify(record, null, 2)}\n`);
process.stdout.write(`exit ${code}, ${wallMs} ms, ${standIn.requests.length} requests -> ${out}\n`);
