import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.js';
import { wireMoney } from '../../examples/treasury/agent.js';
import { captureIo as capture } from '../support/captureIo.js';

describe('legate replay --run-tools', () => {
  afterEach(() => vi.restoreAllMocks());

  it('by default serves the privileged payment the approval recording made, and runs it with all', async () => {
    const wire = vi.spyOn(wireMoney, 'run');
    const io = capture();
    expect(await main(['replay', 'trajectories/approval-granted.yaml'], io)).toBe(0);
    expect(wire).not.toHaveBeenCalled();
    expect(io.stdout[0]).toContain('served wire_money from the recording');
    expect(await main(['replay', 'trajectories/approval-granted.yaml', '--run-tools', 'all'], io)).toBe(0);
    expect(wire).toHaveBeenCalledTimes(1);
  });

  it('refuses a choice it does not know, in one line, exit 2', async () => {
    const io = capture();
    expect(await main(['replay', '--run-tools', 'some'], io)).toBe(2);
    expect(io.stderr).toEqual(["legate replay: --run-tools must be one of safe, all, none, but it was 'some'."]);
    expect(io.stdout).toEqual([]);
  });
});
