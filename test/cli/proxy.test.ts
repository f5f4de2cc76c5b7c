import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { loadTrajectory } from '../../src/trajectory/trajectoryFile.js';
import { capturedResponse, startUpstream } from '../intercept/upstream.js';
import { captureIo } from '../support/captureIo.js';
import { childOutput } from '../support/childOutput.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();

/**
 * A program in no language of legate's: a shell script that asks the Messages API one question with curl, prints
 * the answer, and ends with EXIT_CODE. It knows the API only as ANTHROPIC_BASE_URL.
 */
const AGENT = `#!/bin/sh
body='{"model":"claude-sonnet-4-5","max_tokens":256,"messages":[{"role":"user","content":"'"$QUESTION"'"}]}'
curl -s -X POST "$ANTHROPIC_BASE_URL/v1/messages" -H 'content-type: application/json' \\
  -H "x-api-key: $ANTHROPIC_API_KEY" -H 'anthropic-version: 2023-06-01' --data "$body"
exit "\${EXIT_CODE:-0}"
`;

/** `legate proxy <args>` as a user runs it (the command is the subject): its streams and exit code. */
function legateProxy(args: string[], env: Record<string, string>) {
  const child = spawn('./bin/legate.js', ['proxy', ...args], {
    env: { ...process.env, NO_COLOR: '1', LEGATE_MODE: '', CI: '', ANTHROPIC_API_KEY: 'sk-ant-dummy', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return childOutput(child);
}

const PROCESS_RUNS = 180_000;

describe('legate proxy', () => {
  it(
    "records a curl script's traffic, replays it offline with the command's exit code, and fails a divergence",
    async () => {
      const dir = tempDir();
      const agent = join(dir, 'agent.sh');
      writeFileSync(agent, AGENT, { mode: 0o755 });
      const file = join(dir, 'curl.yaml');
      const upstream = await startUpstream([capturedResponse('ai-sdk--text.json')]);
      const question = { QUESTION: 'How are you?' };
      const recorded = await legateProxy(['--record', file, '--', agent], {
        ...question,
        ANTHROPIC_BASE_URL: upstream.url,
      }).finally(upstream.close);
      expect(recorded.stderr).toMatch(/legate proxy: recording at http:\/\/127\.0\.0\.1:\d+/);
      expect(recorded.status).toBe(0);
      expect(JSON.parse(recorded.stdout)).toMatchObject({ content: [{ text: expect.stringMatching(/^Hello!/) }] });
      expect(upstream.seen).toHaveLength(1);
      expect(loadTrajectory(file)).toMatchObject({
        boundary: 'http',
        client: { userAgent: expect.stringMatching(/^curl\//) },
        input: 'How are you?',
      });
      const bytes = readFileSync(file, 'utf8');

      // Offline (the upstream is closed): the same answer, and the command's own exit code.
      const replayed = await legateProxy(['--replay', file, '--', agent], { ...question, EXIT_CODE: '3' });
      expect(JSON.parse(replayed.stdout)).toEqual(JSON.parse(recorded.stdout));
      expect(replayed.status).toBe(3);

      // Another question: the client gets a 400, and legate says why after the command, exiting 1.
      const diverged = await legateProxy(['--replay', file, '--', agent], { QUESTION: 'Who are you?' });
      expect(JSON.parse(diverged.stdout)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      expect(diverged.stderr).toMatch(/legate proxy: .*differs from the recording/);
      expect(diverged.stderr).toMatch(/messages\[0\]\.content/);
      expect(diverged.status).toBe(1);
      expect(readFileSync(file, 'utf8')).toBe(bytes);
    },
    PROCESS_RUNS,
  );

  it('refuses a call without one file and a command, or with both modes, in one line, exit 2', async () => {
    const dir = tempDir();
    for (const [argv, says] of [
      [['proxy', 'a.yaml'], /takes one trajectory file and, after --, the command to run.*given 1 file and no command/],
      [['proxy', '--', 'true'], /given 0 files and a command/],
      [['proxy', '--record', '--replay', 'a.yaml', '--', 'true'], /takes --record or --replay, not both/],
      [['proxy', '--match', 'loose', 'a.yaml', '--', 'true'], /--match must be one of exact, structure, shape/],
    ] as const) {
      const io = captureIo(dir);
      expect(await main([...argv], io)).toBe(2);
      expect(io.stderr).toEqual([expect.stringMatching(says)]);
    }
  });
});
