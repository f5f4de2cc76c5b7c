// One run of the agent fixture (test/fixtures/agent-sdk/agent.mjs: the Claude Agent SDK's query() and the binary it
// starts) against a fresh stand-in, with every request the binary sent and what the agent printed.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type AgentSdkStandInOptions, type LoggedRequest, startAgentSdkStandIn } from './agentSdkStandIn.js';

export const AGENT_FIXTURE = resolve('test/fixtures/agent-sdk/agent.mjs');
export const STAND_IN_API_KEY = 'sk-ant-api03-standin-key';

/** Where the agent reaches the API: a stand-in of the run's own (its script), or `api`, variables naming another. */
export type AgentRunOptions = AgentRunSettings & (AgentSdkStandInOptions | AgentApi);

interface AgentApi {
  /**
   * The variables that point the agent at the API instead (a recording proxy's `env`, with a key if it needs one):
   * no stand-in is started then, and the run's `requests` is empty.
   */
  api: Record<string, string>;
}

interface AgentRunSettings {
  /** Variables given to the agent on top of PATH, HOME and the stand-in's URL and key. */
  env?: Record<string, string>;
  /** The agent's working folder (its `cwd` option); a fresh temporary folder by default. */
  cwd?: string;
  /** The agent's HOME, where the binary keeps `.claude.json` (its device id); a fresh temporary folder by default. */
  home?: string;
  /** Make the stand-in the agent's HTTPS proxy too, to log its connections to other hosts. */
  proxy?: boolean;
  /** Start the binary under `/usr/bin/time -v`; its report becomes the run's `time`. */
  timed?: boolean;
}

export interface AgentRun {
  env: Record<string, string>;
  cwd: string;
  home: string;
  baseUrl: string;
  exitCode: number | null;
  wallMs: number;
  /** The agent's stdout lines: `{"effect":...}`, `{"result":...}`, `{"thrown":...}`. */
  stdout: string[];
  stderr: string;
  /** What send_payment appended, a JSON line per payment. */
  effects: string;
  time: string | undefined;
  requests: LoggedRequest[];
}

export async function runAgentFixture(options: AgentRunOptions): Promise<AgentRun> {
  const scratch = mkdtempSync(join(tmpdir(), 'agentsdk-'));
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), 'agentsdk-cwd-'));
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'agentsdk-home-'));
  const effects = join(scratch, 'effects.jsonl');
  writeFileSync(effects, '');
  const timeFile = join(scratch, 'time.txt');
  const standIn = 'api' in options ? undefined : await startAgentSdkStandIn(options);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    ...('api' in options ? options.api : { ANTHROPIC_BASE_URL: standIn?.url, ANTHROPIC_API_KEY: STAND_IN_API_KEY }),
    AGENT_EFFECTS_FILE: effects,
    AGENT_CWD: cwd,
    ...(options.timed === true ? { AGENT_CLAUDE_EXECUTABLE: timedBinary(scratch, timeFile) } : {}),
    ...(options.proxy === true && standIn !== undefined ? { HTTPS_PROXY: standIn.url, NO_PROXY: '127.0.0.1' } : {}),
    ...options.env,
  };
  const started = performance.now();
  const child = spawn(process.execPath, [AGENT_FIXTURE], { env, cwd });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exitCode = await new Promise<number | null>((done) => child.on('close', done));
  const wallMs = Math.round(performance.now() - started);
  await standIn?.close();
  return {
    env: options.env ?? {},
    cwd,
    home,
    baseUrl: standIn?.url ?? env.ANTHROPIC_BASE_URL ?? '',
    exitCode,
    wallMs,
    stdout: stdout.split('\n').filter((line) => line !== ''),
    stderr,
    effects: readFileSync(effects, 'utf8'),
    time: options.timed === true ? readFileSync(timeFile, 'utf8') : undefined,
    requests: standIn?.requests ?? [],
  };
}

/** A wrapper to give as pathToClaudeCodeExecutable: the bundled binary under `/usr/bin/time -v`. */
function timedBinary(scratch: string, timeFile: string): string {
  const wrapper = join(scratch, 'claude-timed');
  const binary = resolve('node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude');
  writeFileSync(wrapper, `#!/bin/sh\nexec /usr/bin/time -v -o ${timeFile} ${binary} "$@"\n`);
  chmodSync(wrapper, 0o755);
  return wrapper;
}
