import { LegateError } from '../src/errors/LegateError.js';
import { legateVersion } from '../src/version.js';
import { describeRefusal, describeUnexpected, oneLine } from './describeError.js';
import type { CliIo } from './io.js';

/** What a verb's module gives: its help, and the verb itself. */
interface Verb {
  help: string;
  run(args: string[], io: CliIo): Promise<number>;
}

/**
 * The commands, in the order usage lists them. A verb's module (and the library it calls) is loaded only when that
 * verb runs or its help is asked for: `legate --version`, `--help` and a mistyped command load none of them.
 */
interface Command {
  summary: string;
  load(): Promise<Verb>;
}

const COMMANDS: Record<string, Command> = {
  replay: {
    summary: "replay trajectories against today's code; exit 1 on any divergence",
    load: () => import('./commands/replay.js').then((verb) => ({ help: verb.replayHelp, run: verb.replay })),
  },
  fork: {
    summary: "serve a recording's first turns, go on live, and record the whole run as a new file naming its parent",
    load: () => import('./commands/fork.js').then((verb) => ({ help: verb.forkHelp, run: verb.fork })),
  },
  show: {
    summary: 'print a trajectory as a readable timeline',
    load: () => import('./commands/show.js').then((verb) => ({ help: verb.showHelp, run: verb.show })),
  },
  diff: {
    summary: 'show how two trajectories differ, turn by turn',
    load: () => import('./commands/diff.js').then((verb) => ({ help: verb.diffHelp, run: verb.diff })),
  },
  rerecord: {
    summary: "record trajectories' inputs again, live (optionally with another model), into a new folder",
    load: () => import('./commands/rerecord.js').then((verb) => ({ help: verb.rerecordHelp, run: verb.rerecord })),
  },
  compare: {
    summary: 'compare two corpora file by file (tools, decisions, stop reasons); exit 1 on a changed decision',
    load: () => import('./commands/compare.js').then((verb) => ({ help: verb.compareHelp, run: verb.compare })),
  },
  view: {
    summary: 'write trajectories as one self-contained HTML page (index, timelines, taint paths)',
    load: () => import('./commands/view.js').then((verb) => ({ help: verb.viewHelp, run: verb.view })),
  },
  validate: {
    summary: 'check trajectory files against the format, with file:line:column',
    load: () => import('./commands/validate.js').then((verb) => ({ help: verb.validateHelp, run: verb.validate })),
  },
  audit: {
    summary: 'report what the guard would have blocked in recorded runs; exit 1 on any unsafe flow',
    load: () => import('./commands/audit.js').then((verb) => ({ help: verb.auditHelp, run: verb.audit })),
  },
  fuzz: {
    summary: 'fuzz the tools and agents a module exports; exit 1 on any finding',
    load: () => import('./commands/fuzz.js').then((verb) => ({ help: verb.fuzzHelp, run: verb.fuzz })),
  },
  attack: {
    summary: 'measure an attack suite: utility and attack success per defence mode, as a table',
    load: () => import('./commands/attack.js').then((verb) => ({ help: verb.attackHelp, run: verb.attack })),
  },
  mcp: {
    summary: "list an MCP server's tools with the flags legate gives them; serve a module's tools over MCP",
    load: () => import('./commands/mcp.js').then((verb) => ({ help: verb.mcpHelp, run: verb.mcp })),
  },
  openapi: {
    summary: "list an OpenAPI document's operations by tag: the tools they give, with their flags, and those skipped",
    load: () => import('./commands/openapi.js').then((verb) => ({ help: verb.openapiHelp, run: verb.openapi })),
  },
  proxy: {
    summary: 'record or replay the Messages API traffic of a command in any language',
    load: () => import('./commands/proxy.js').then((verb) => ({ help: verb.proxyHelp, run: verb.proxy })),
  },
  'stand-in': {
    summary: 'serve a recording or a script as the Messages API, at a URL to give a client as ANTHROPIC_BASE_URL',
    load: () => import('./commands/standIn.js').then((verb) => ({ help: verb.standInHelp, run: verb.standIn })),
  },
  demo: {
    summary: 'run the shipped example agent against a scripted model',
    load: () => import('./commands/demo.js').then((verb) => ({ help: verb.demoHelp, run: verb.demo })),
  },
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
  try {
    // Loading the verb is inside the try: a refusal while it loads (an optional peer it needs that is not
    // installed) is said as any other refusal of that verb.
    const verb = await command.load();
    if (args.includes('--help') || args.includes('-h')) {
      io.out(verb.help);
      return 0;
    }
    return await verb.run(args, io);
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
