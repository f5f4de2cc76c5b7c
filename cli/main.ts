import { legateVersion } from '../src/version.js';
import { demo, demoHelp } from './commands/demo.js';
import type { CliIo } from './io.js';

interface Command {
  summary: string;
  help: string;
  run(args: string[], io: CliIo): Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  demo: { summary: 'run the shipped example agent against a scripted model', help: demoHelp, run: (_args, io) => demo(io) },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const list = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`);
  return ['Usage: legate <command> [options]', '', 'Commands:', ...list, '', 'Options:', '  --help     show help for a command', '  --version  print the legate version'].join('\n');
}

/** Runs the `legate` command line and returns its exit code. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return name === undefined ? 1 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.out(legateVersion());
    return 0;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    io.err(`legate: '${name}' is not a command. The commands are: ${Object.keys(COMMANDS).join(', ')}. Run 'legate --help' for more.`);
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.out(command.help);
    return 0;
  }
  return command.run(args, io);
}
