import { LegateError } from '../src/index.js';
import { legateVersion } from '../src/version.js';
import { attack, attackHelp } from './commands/attack.js';
import { audit, auditHelp } from './commands/audit.js';
import { demo, demoHelp } from './commands/demo.js';
import { diff, diffHelp } from './commands/diff.js';
import { fuzz, fuzzHelp } from './commands/fuzz.js';
import { mcp, mcpHelp } from './commands/mcp.js';
import { openapi, openapiHelp } from './commands/openapi.js';
import { replay, replayHelp } from './commands/replay.js';
import { show, showHelp } from './commands/show.js';
import { validate, validateHelp } from './commands/validate.js';
import { view, viewHelp } from './commands/view.js';
import { describeRefusal, describeUnexpected, oneLine } from './describeError.js';
import type { CliIo } from './io.js';

interface Command {
  summary: string;
  help: string;
  run(args: string[], io: CliIo): Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  replay: {
    summary: "replay trajectories against today's code; exit 1 on any divergence",
    help: replayHelp,
    run: replay,
  },
  show: { summary: 'print a trajectory as a readable timeline', help: showHelp, run: show },
  diff: { summary: 'show how two trajectories differ, turn by turn', help: diffHelp, run: diff },
  view: {
    summary: 'write trajectories as one self-contained HTML page (index, timelines, taint paths)',
    help: viewHelp,
    run: view,
  },
  validate: {
    summary: 'check trajectory files against the format, with file:line:column',
    help: validateHelp,
    run: validate,
  },
  audit: {
    summary: 'report what the guard would have blocked in recorded runs; exit 1 on any unsafe flow',
    help: auditHelp,
    run: audit,
  },
  fuzz: { summary: 'fuzz the tools and agents a module exports; exit 1 on any finding', help: fuzzHelp, run: fuzz },
  attack: {
    summary: 'measure an attack suite: utility and attack success per defence mode, as a table',
    help: attackHelp,
    run: attack,
  },
  mcp: { summary: 'serve the tools a module exports over MCP (stdio or Streamable HTTP)', help: mcpHelp, run: mcp },
  openapi: {
    summary: 'list the tools an OpenAPI document gives, with their flags, and the operations skipped',
    help: openapiHelp,
    run: openapi,
  },
  demo: { summary: 'run the shipped example agent against a scripted model', help: demoHelp, run: demo },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const list = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`);
  return [
    'Usage: legate <command> [options]',
    '',
    'Commands:',
    ...list,
    '',
    'Options:',
    '  --help     show help for a command',
    '  --version  print the legate version',
  ].join('\n');
}

/** Runs the `legate` command line and returns its exit code. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) {
    // No command is a mistake: usage goes where errors go, and the exit code says so.
    io.err(usage());
    return 1;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return 0;
  }
  if (name === '--version' || name === '-v') {
    io.out(legateVersion());
    return 0;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    io.err(
      `legate: '${name}' is not a command. The commands are: ${Object.keys(COMMANDS).join(', ')}. Run 'legate ` +
        `--help' for more.`,
    );
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.out(command.help);
    return 0;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    // legate's own refusals (a missing file, a malformed config, a module that cannot be imported, a missing
    // optional peer) are about what the command was given, and say what to do: that message, not a stack; exit 2.
    if (error instanceof LegateError) {
      io.err(`legate ${name}: ${describeRefusal(error, io.cwd)}`);
      return 2;
    }
    // An option the command does not know, or one missing its value: a usage error.
    if (String((error as { code?: unknown } | null)?.code).startsWith('ERR_PARSE_ARGS_')) {
      io.err(`legate ${name}: ${usageProblem(error as Error)} Run 'legate ${name} --help' for its options.`);
      return 2;
    }
    // Anything else is a bug, ours or in the code under test: one line, unless they ask for the stack; exit 1.
    io.err(`legate ${name}: ${describeUnexpected(error)}`);
    return 1;
  }
}

/** node:util's parseArgs message, said shortly: `unknown option '--bogus'.` instead of its advice on `--`. */
function usageProblem(error: Error): string {
  const unknown = /^Unknown option '([^']*)'/.exec(error.message);
  return unknown === null ? oneLine(error.message) : `unknown option '${unknown[1]}'.`;
}
