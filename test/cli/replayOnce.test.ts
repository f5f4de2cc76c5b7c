import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureIo } from '../support/captureIo.js';

// Every file legate opens is counted (a trajectory is read through openSync), and every time settings are resolved.
vi.mock('node:fs', async (original) => {
  const actual = await original<typeof import('node:fs')>();
  return { ...actual, openSync: vi.fn(actual.openSync) };
});
vi.mock('../../src/replay/replaySettings.js', async (original) => {
  const actual = await original<typeof import('../../src/replay/replaySettings.js')>();
  return { ...actual, resolveReplaySettings: vi.fn(actual.resolveReplaySettings) };
});

const FILES = [
  'trajectories/approval-granted.yaml',
  'trajectories/handoff-to-billing.yaml',
  'trajectories/researcher-taints-caller.yaml',
];

describe('legate replay, per file', () => {
  afterEach(() => vi.clearAllMocks());

  it('reads each file once and resolves its settings once, in one process', async () => {
    // Test files share their worker's modules: the command and legate are imported afresh, so they see the mocks.
    vi.resetModules();
    const fs = await import('node:fs');
    const replaySettings = await import('../../src/replay/replaySettings.js');
    const { main } = await import('../../cli/main.js');
    const io = captureIo();
    expect(await main(['replay', ...FILES, '--workers', '1'], io)).toBe(0);
    expect(io.stdout.filter((line) => line.startsWith('✓'))).toHaveLength(FILES.length);
    const opened = vi.mocked(fs.openSync).mock.calls.map(([path]) => resolve(String(path)));
    const resolvedFor = vi
      .mocked(replaySettings.resolveReplaySettings)
      .mock.calls.flatMap(([input]) => (input.given?.file === undefined ? [] : [resolve(input.given.file)]));
    for (const file of FILES.map((f) => resolve(f))) {
      expect(
        opened.filter((path) => path === file),
        file,
      ).toHaveLength(1);
      expect(
        resolvedFor.filter((path) => path === file),
        file,
      ).toHaveLength(1);
    }
  });
});
