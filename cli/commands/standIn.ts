import { resolve } from 'node:path';
import { importModule } from '../../src/files/importModule.js';
import { describeValue, quoteValue } from '../../src/json/describeValue.js';
import { startStandIn, type StandIn, type StandInOptions } from '../../src/intercept/index.js';
import { parseOptions } from '../parseOptions.js';
import type { CliIo } from '../io.js';

export const standInHelp = `legate stand-in <trajectory.yaml | script.(js|mjs|ts)> [--port <n>] [--host <address>]

Serves the Messages API from a recording or a script, on http://127.0.0.1:<port> (--port 0, the
default: any free one), and prints that URL, the one line on standard output: give it to a client
as ANTHROPIC_BASE_URL. Each POST <base>/v1/messages gets the next response, as JSON or as the
API's stream when the request asks for one. A trajectory's responses are served as recorded, each
conversation in its order; a script module default-exports the steps a ScriptedTransport takes
(reply.text(...), reply.toolUse(...), ...). A request it has no response for gets an error the
client does not retry. Serves until interrupted (Ctrl-C, SIGTERM), then exits 0.`;

const MODULE = /\.[mc]?[jt]s$/;
const TRAJECTORY = /\.ya?ml$/;

export async function standIn(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions({
    args,
    allowPositionals: true,
    options: { port: { type: 'string' }, host: { type: 'string' } },
  });
  const [source] = positionals;
  if (positionals.length !== 1 || !(TRAJECTORY.test(source!) || MODULE.test(source!))) {
    const given = positionals.length === 1 ? `, not ${quoteValue(source)}` : '';
    io.err(
      `legate stand-in: give one trajectory (.yaml) or script module (.js, .mjs, .ts) to serve${given}, e.g. ` +
        'legate stand-in trajectories/tool-loop.yaml',
    );
    return 2;
  }
  const port = values.port === undefined ? 0 : /^\d+$/.test(values.port) ? Number(values.port) : Number.NaN;
  if (!(Number.isSafeInteger(port) && port <= 65535)) {
    io.err(
      `legate stand-in: --port must be a whole number from 0 to 65535 (0: any free port), but it was ` +
        `${quoteValue(values.port)}.`,
    );
    return 2;
  }
  const file = resolve(io.cwd, source!);
  let served: Pick<StandInOptions, 'script' | 'trajectory'> = { trajectory: file };
  if (MODULE.test(file)) {
    const script = (await importModule(file)).default;
    if (!Array.isArray(script)) {
      io.err(
        `legate stand-in: ${source} must default-export the steps to serve, a list (export default ` +
          `[reply.text('Hello')]), but its default export is ${describeValue(script)}.`,
      );
      return 2;
    }
    served = { script };
  }
  const standIn = await startStandIn({ ...served, port, ...(values.host === undefined ? {} : { host: values.host }) });
  io.out(standIn.url);
  await untilStopped(standIn);
  return 0;
}

/** Serves until SIGINT or SIGTERM, then closes. */
async function untilStopped(standIn: StandIn): Promise<void> {
  let stop = () => {};
  const stopped = new Promise<void>((resolveStopped) => {
    stop = () => resolveStopped();
  });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await stopped;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  await standIn.close();
}
