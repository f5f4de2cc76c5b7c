import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONVERSATIONS,
  prepare,
  replayThroughBareMsw,
  replayThroughInterception,
  type Prepared,
} from '../../bench/intercept/interceptScenario.js';
import { loadTrajectory } from '../../src/trajectory/trajectoryFile.js';

/**
 * The interception bench times replay through interceptAnthropic beside bare msw handlers; the
 * comparison is only honest if both serve the whole recorded conversation to the same loop and it ends
 * the same way as when it was recorded.
 */
// One folder for the file: the conversations are recorded once and replayed by every test.
const dir = mkdtempSync(join(tmpdir(), 'legate-test-'));
let prepared: Prepared[];

beforeAll(async () => {
  prepared = await prepare(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('interception bench scenario', () => {
  it('records every conversation, JSON and streamed, each with tool calls and a final text', () => {
    expect(prepared).toHaveLength(CONVERSATIONS.length);
    const streamed = prepared.map(({ file }) => loadTrajectory(file).turns.some((turn) => turn.events !== undefined));
    expect(streamed).toContain(true);
    expect(streamed).toContain(false);
    for (const { file, recorded, requests } of prepared) {
      expect(loadTrajectory(file).turns).toHaveLength(requests);
      expect(recorded.calls.length).toBeGreaterThan(0);
      expect(recorded.text).not.toBe('');
    }
  });

  for (const [i, conversation] of CONVERSATIONS.entries()) {
    it(`${conversation.name}: both replays end as the recording did`, async () => {
      const conversationPrepared = prepared[i]!;
      expect(await replayThroughInterception(conversationPrepared)).toEqual(conversationPrepared.recorded);
      const served = { count: 0 };
      expect(await replayThroughBareMsw(conversationPrepared, served)).toEqual(conversationPrepared.recorded);
      expect(served.count).toBe(conversationPrepared.requests);
    });
  }
});
