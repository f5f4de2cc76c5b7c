import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { load as yamlLoad } from 'js-yaml';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { AnthropicTransport, loadTrajectory, parseTrajectory, runTrajectory, type ModelResponse } from 'legate';
import { builtModule } from './builtModule.js';
import { agent, FILES, generateCorpus, TURNS } from './replayCorpus.js';

// Not public: the response a trajectory turn records, as a transport returns it.
const { toModelResponse } = await builtModule<typeof import('../src/trajectory/conversation.js')>(
  'src/trajectory/conversation.js',
);

/** The HTTP-level anchor is slower; a subset gives its rate without a long wait. */
const ANCHOR_FILES = 100;
/** Alternating rounds of replay and parse-only; the median of each is reported. */
const ROUNDS = 3;

/**
 * HTTP-level replay, the way a request-recording library replays: the same recorded responses
 * served to the real SDK over msw, as SSE streams (what the streaming transport records) or
 * as JSON bodies. Returns files per second over a subset of the corpus.
 */
async function anchorRate(server: ReturnType<typeof setupServer>, files: string[], stream: boolean): Promise<number> {
  const client = new Anthropic({ apiKey: 'sk-ant-bench', maxRetries: 0 });
  const replayOverHttp = async (file: string) => {
    const trajectory = loadTrajectory(file);
    let turn = 0;
    server.use(
      http.post('https://api.anthropic.com/v1/messages', () => {
        const response = toModelResponse(trajectory.turns[turn++]!.response);
        return stream
          ? new HttpResponse(sseStream(response), { headers: { 'content-type': 'text/event-stream' } })
          : HttpResponse.json(response);
      }),
    );
    await agent(new AnthropicTransport({ client, stream })).run(trajectory.input);
  };
  await replayOverHttp(files[0]!);
  const seconds = await timeIt(async () => {
    for (const file of files.slice(0, ANCHOR_FILES)) await replayOverHttp(file);
  });
  return ANCHOR_FILES / seconds;
}

/** A response as the API streams it: message_start, each block's start, delta and stop, message_delta, message_stop. */
function sseStream(response: ModelResponse): string {
  const events: object[] = [
    {
      type: 'message_start',
      message: { ...response, content: [], stop_reason: null, usage: { ...response.usage, output_tokens: 1 } },
    },
  ];
  response.content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    } else if (block.type === 'tool_use') {
      events.push({
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      events.push({
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push({
    type: 'message_delta',
    delta: { stop_reason: response.stop_reason, stop_sequence: null },
    usage: { output_tokens: response.usage.output_tokens },
  });
  events.push({ type: 'message_stop' });
  return events
    .map((event) => `event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`)
    .join('');
}

/** CPU seconds (user and system) the work took in this process: the machine's other work is not counted. */
async function cpuSeconds(work: () => Promise<void>): Promise<number> {
  const start = process.cpuUsage();
  await work();
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1e6;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timeIt(work: () => Promise<void>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

export async function benchReplay(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'legate-bench-'));
  try {
    const files = await generateCorpus(dir);
    // Replay, and the same files read and parsed by js-yaml alone (the parse-only floor), measured in
    // alternating rounds of CPU time: a slow moment of the shared machine falls on both alike.
    const parseOnly = () => {
      for (const file of files) yamlLoad(readFileSync(file, 'utf8'));
    };
    const replayAll = async () => {
      for (const file of files) await runTrajectory({ file, agent, mode: 'replay' });
    };
    await replayAll(); // warm-up: neither pays for first-time compilation
    parseOnly();
    const replayRounds: number[] = [];
    const parseRounds: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      replayRounds.push(await cpuSeconds(replayAll));
      parseRounds.push(await cpuSeconds(async () => parseOnly()));
    }
    const legateSeconds = median(replayRounds);
    const parseSeconds = median(parseRounds);

    // The read alone (YAML, then the format's check), the part of a replay the format's declaration decides.
    const texts = files.map((file) => readFileSync(file, 'utf8'));
    const readSeconds = await timeIt(async () => {
      for (const [i, text] of texts.entries()) parseTrajectory(text, files[i]);
    });

    const server = setupServer();
    server.listen({ onUnhandledRequest: 'error' });
    const sse = await anchorRate(server, files, true);
    const json = await anchorRate(server, files, false);
    server.close();

    const ours = FILES / legateSeconds;
    const format = (n: number) => Math.round(n).toLocaleString('en-US');
    const line = (name: string, filesPerSecond: number) =>
      console.log(
        `  ${name.padEnd(40)} ${format(filesPerSecond).padStart(8)} files/s ` +
          `${format(filesPerSecond * TURNS).padStart(9)} turns/s`,
      );
    console.log(
      `Replay, ${FILES} trajectories of ${TURNS} turns (read, parse, check every request, run the tools), one core`,
    );
    line('legate replay', ours);
    line(`SDK over msw, SSE as recorded (${ANCHOR_FILES} files)`, sse);
    line(`SDK over msw, plain JSON (${ANCHOR_FILES} files)`, json);
    line('of which reading the files', FILES / readSeconds);
    line('parse only (read + js-yaml load)', FILES / parseSeconds);
    const toParse = legateSeconds / parseSeconds;
    const verdict = toParse <= 1.5 ? 'met' : 'NOT met';
    console.log(
      `  replay takes ${toParse.toFixed(2)}x the parse-only time (target <= 1.5x: ${verdict}; ` +
        `CPU time, median of ${ROUNDS} alternating rounds)`,
    );
    console.log(
      `  ratio ${(ours / sse).toFixed(1)}x the SSE replay, ${(ours / json).toFixed(1)}x the JSON replay  ` +
        '(target >= 10x)',
    );
    console.log(
      `  ${FILES} files in ${legateSeconds.toFixed(2)} s  (target < 2 s: ${legateSeconds < 2 ? 'met' : 'NOT met'})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
