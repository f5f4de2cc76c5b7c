import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { firstDifference } from '../../src/json/firstDifference.js';
import type { MessagesRequest } from '../../src/messages/types.js';
import { actualRequest } from '../../src/replay/matchRequest.js';
import {
  NORMALISATION_NAMES,
  normalisationRedactions,
  normaliseRequest,
  resolveNormalisations,
  type NormalisationName,
} from '../../src/trajectory/normalisations.js';
import { createRedactor, redactRequest } from '../../src/trajectory/redaction.js';

/** The loop requests of a captured run of the Claude Agent SDK (test/fixtures/agent-sdk/captured/README.md). */
function loopRequests(capture: string): MessagesRequest[] {
  const run = JSON.parse(readFileSync(`test/fixtures/agent-sdk/captured/${capture}.json`, 'utf8')) as {
    requests: { answer: string; body?: MessagesRequest }[];
  };
  return run.requests.filter((request) => request.answer.startsWith('turn')).map((request) => request.body!);
}

/** A request as a replay compares it, after the named normalisations. */
function compared(request: MessagesRequest, names: readonly NormalisationName[]) {
  const redact = createRedactor(normalisationRedactions(names));
  return actualRequest(redactRequest(redact, normaliseRequest(request, names)));
}

const ALL = NORMALISATION_NAMES;
const folderA = loopRequests('default-folderA-run1');
const folderB = loopRequests('default-folderB-git');

describe("Claude Code's traffic, normalised", () => {
  it('compares two runs from different folders (and sessions) as the same requests, and not without', () => {
    expect(folderA).toHaveLength(3);
    for (const [i, request] of folderA.entries()) {
      expect(firstDifference(compared(request, ALL), compared(folderB[i]!, ALL))).toBeUndefined();
      // Each normalisation is needed: without it, the runs differ.
      for (const name of ['userId', 'claudeCodeEnvironment'] as const) {
        const without = ALL.filter((other) => other !== name);
        expect(firstDifference(compared(request, without), compared(folderB[i]!, without))).toBeDefined();
      }
    }
  });

  it('keeps no working directory, date or session id in what it compares', () => {
    const text = JSON.stringify(compared(folderA[0]!, ALL));
    for (const kept of ['/tmp/agentsdk-folderA', "Today's date is 2026", '476f2bb0', 'OS Version: Linux'])
      expect(text).not.toContain(kept);
    expect(text).toContain('Primary working directory: [working directory]');
    expect(text).toContain("Today's date is [date].");
    expect(compared(folderA[0]!, ALL).metadata).toEqual({ userId: '[user_id: {account_uuid, device_id, session_id}]' });
  });

  it('makes each turn a continuation of the last once the moving cache breakpoint is dropped, and not before', () => {
    for (const [i, request] of folderA.entries()) {
      if (i === 0) continue;
      const before = folderA[i - 1]!;
      const sentBefore = (names: NormalisationName[]) => normaliseRequest(before, names).messages;
      const sentNow = (names: NormalisationName[]) =>
        normaliseRequest(request, names).messages.slice(0, before.messages.length);
      expect(firstDifference(sentBefore(['cacheControl']), sentNow(['cacheControl']))).toBeUndefined();
      expect(firstDifference(sentBefore([]), sentNow([]))).toBeDefined();
    }
  });

  it('applies the environment redactions by default to Claude Code only, and every choice given wins', () => {
    expect(resolveNormalisations({}, true)).toEqual(['cacheControl', 'userId', 'claudeCodeEnvironment']);
    expect(resolveNormalisations({}, false)).toEqual(['cacheControl', 'userId']);
    expect(resolveNormalisations({ claudeCodeEnvironment: true, userId: false }, false)).toEqual([
      'cacheControl',
      'claudeCodeEnvironment',
    ]);
    expect(resolveNormalisations({ cacheControl: false, claudeCodeEnvironment: false }, true)).toEqual(['userId']);
  });
});
