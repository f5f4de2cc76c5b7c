import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { reply } from '../../../src/index.js';
import { interceptAnthropic, startStandIn } from '../../../src/intercept/index.js';
import { loadTrajectory } from '../../../src/trajectory/trajectoryFile.js';
import { useTempDir } from '../../support/tempDir.js';
import { API_KEY, counter, setupFor } from '../capturedConversations.js';
import { createLoop, type LoopOutcome, streamLoop, toolRunnerLoop } from '../toolLoops.js';

// How adopters use the stand-in: record their client's traffic with interceptAnthropic against it (no key, no
// network), then replay the file offline. What the stand-in served is what the file holds.

const tempDir = useTempDir();

/** Runs `loop` under an interception of `file` in `mode`, its client sending to `baseURL`. */
async function under(file: string, mode: 'record' | 'replay', baseURL: string, loop: typeof createLoop) {
  const interception = await interceptAnthropic({ file, mode, config: false, baseURL });
  let outcome: LoopOutcome;
  try {
    outcome = await loop(setupFor(counter, baseURL, { client: new Anthropic({ apiKey: API_KEY, baseURL }) }));
  } finally {
    await interception.close();
  }
  return outcome;
}

describe('recording against the stand-in', () => {
  it.each([
    ['create', createLoop],
    ['stream', streamLoop],
    // The SDK's tool runner keeps the conversation on the server (a thread): the recording's stand-in follows it.
    ['tool runner', toolRunnerLoop],
  ])('records a %s tool loop served by a script into a trajectory that replays offline', async (_, loop) => {
    const file = join(tempDir(), 'counter.yaml');
    const standIn = await startStandIn({
      script: [reply.toolUse('test_tool', { count: 1 }), reply.toolUse('test_tool', { count: 2 }), reply.text('2.')],
    });
    let recorded: LoopOutcome;
    try {
      recorded = await under(file, 'record', standIn.url, loop);
    } finally {
      await standIn.close();
    }
    expect(recorded).toEqual({
      text: '2.',
      calls: [
        { name: 'test_tool', input: { count: 1 } },
        { name: 'test_tool', input: { count: 2 } },
      ],
    });
    expect(standIn.requests).toHaveLength(3);
    const trajectory = loadTrajectory(file);
    expect(trajectory.turns.map((turn) => turn.response.id)).toEqual([
      'msg_scripted_1',
      'msg_scripted_2',
      'msg_scripted_3',
    ]);
    if (loop !== toolRunnerLoop)
      expect(trajectory.turns.every((turn) => (turn.events !== undefined) === (loop === streamLoop))).toBe(true);
    const text = readFileSync(file, 'utf8');

    // The stand-in is closed: only the recording answers.
    expect(await under(file, 'replay', standIn.url, loop)).toEqual(recorded);
    expect(readFileSync(file, 'utf8')).toBe(text);

    // And the recording, served by a stand-in of its own, gives the client the same conversation.
    const again = await startStandIn({ trajectory: file });
    try {
      expect(await loop(setupFor(counter, again.url))).toEqual(recorded);
    } finally {
      await again.close();
    }
  });
});
