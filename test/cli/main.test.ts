import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { createPaint } from '../../cli/style.js';
import { captureIo as capture } from '../support/captureIo.js';

describe('the legate command', () => {
  it('runs the demo: the binder refuses "one", the model corrects itself', async () => {
    const io = capture();
    expect(await main(['demo'], io)).toBe(0);
    const output = io.stdout.join('\n');
    expect(output).toContain(
      `✗ invalid (invalid_type, argument left) Tool 'add' argument 'left' must be a whole number, but the ` +
        'value was the string "one".',
    );
    expect(output).toContain('✓ ok 3');
    expect(output).toMatch(/end_turn · 3 turns · \d+ in \/ \d+ out tokens/);
  });

  it('names the commands when given one it does not know, and exits 2', async () => {
    const io = capture();
    expect(await main(['replya'], io)).toBe(2);
    expect(io.stderr.join('\n')).toBe(
      `legate: 'replya' is not a command. The commands are: replay, fork, show, diff, rerecord, compare, view, ` +
        `validate, audit, fuzz, attack, mcp, openapi, proxy, stand-in, demo. Run 'legate --help' for more.`,
    );
  });

  it('prints usage with --help and the version with --version', async () => {
    const io = capture();
    expect(await main(['--help'], io)).toBe(0);
    expect(await main(['--version'], io)).toBe(0);
    expect(io.stdout[0]).toContain('Usage: legate <command>');
    expect(io.stdout[1]).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('prints usage to stderr and exits 1 when given no command (a mistake, not a request for help)', async () => {
    const io = capture();
    expect(await main([], io)).toBe(1);
    expect(io.stdout).toEqual([]);
    expect(io.stderr[0]).toContain('Usage: legate <command>');
  });
});

describe('colour', () => {
  const tty = { isTTY: true };
  it('is on at a terminal, off when NO_COLOR is set to anything but the empty string', () => {
    expect(createPaint(tty, {})('red', 'x')).not.toBe('x');
    expect(createPaint(tty, { NO_COLOR: '1' })('red', 'x')).toBe('x');
    expect(createPaint(tty, { NO_COLOR: '' })('red', 'x')).not.toBe('x');
    expect(createPaint(tty, { TERM: 'dumb' })('red', 'x')).toBe('x');
    expect(createPaint({ isTTY: false }, {})('red', 'x')).toBe('x');
  });
});
