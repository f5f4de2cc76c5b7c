import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { AnthropicTransport, loadTrajectory, parseTrajectory, runTrajectory, type ModelResponse } from 'legate';
// Not public, so from the source (the build bundles it out of reach): the response a trajectory turn records.
import { toModelResponse } from '../src/trajectory/conversation.js';
import { costRatio, measureEach, MILLISECONDS, report, summarise } from './harness.js';
import { measureSidesInProcesses } from './replay/replayProcess.js';
import { yamlLoad, yamlLoadEsm } from './replay/parseOnly.js';
import { agent, agentOf, FILES, generateCorpus, TURNS } from './replayCorpus.js';

/** Replay's goal: at most twice the parse-only time of the same files. */
const TWO_X = { most: 2, label: 'goal <= 2x parse-only' };

/** The HTTP-level anchors are slower; they cycle through a subset of the corpus. */
const ANCHOR_FILES = 100;
/** Alternating rounds in this process; timed samples (whole passes over the corpus) in each separate process. */
const ROUNDS = 5;
const SAMPLES = 5;

/**
 * HTTP-level replay, the way a request-recording library replays: the same recorded responses
 * served to the real SDK over msw, as SSE streams (what the streaming transport records) or
 * as JSON bodies. Returns the replay of one file.
 */
function replayerOverHttp(server: ReturnType<typeof setupServer>, stream: boolean) {
  const client = new Anthropic({ apiKey: 'sk-ant-bench', maxRetries: 0 });
  return async (file: string) => {
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
    server.resetHandlers();
  };
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

/** An operation that takes the next file of `files` on each call, round and round. */
function cycling<T>(files: string[], work: (file: string, index: number) => T): () => T {
  let next = 0;
  return () => {
    const index = next++ % files.length;
    return work(files[index]!, index);
  };
}

export async function benchReplay(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'legate-bench-'));
  const server = setupServer();
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const files = await generateCorpus(dir);
    // The same agent's one-turn runs (its answer at once): what every file costs before its turns, and so, beside the
    // ten-turn files, what each further turn costs.
    mkdirSync(join(dir, 'one-turn'));
    const oneTurnFiles = await generateCorpus(join(dir, 'one-turn'), FILES, 1);
    const oneTurnAgent = agentOf(1);
    const texts = files.map((file) => readFileSync(file, 'utf8'));
    const anchorFiles = files.slice(0, ANCHOR_FILES);
    // Replay, the parse-only floor (the same files read and loaded by js-yaml alone; bench/replay/parseOnly.ts says
    // which build, and the other is measured beside it) and the read alone (YAML, then the format's check: the part
    // of a replay the format's declaration decides), in alternating rounds of CPU time, each round charged its own
    // garbage (bench/harness.ts). The two HTTP-level anchors after, in rounds of their own: the garbage the SDK and
    // msw leave for a full collection would otherwise be paid for in the replay's rounds (+18-20% a file beside the
    // replay in a process of its own, when they alternated).
    const [replay, parse, esm, read, oneTurn] = await measureEach(
      [
        { name: 'legate replay', operation: cycling(files, (file) => runTrajectory({ file, agent, mode: 'replay' })) },
        {
          name: 'parse only (read + js-yaml load)',
          operation: cycling(files, (file) => yamlLoad(readFileSync(file, 'utf8'))),
        },
        {
          name: "parse only, js-yaml's ES module build",
          operation: cycling(files, (file) => yamlLoadEsm(readFileSync(file, 'utf8'))),
        },
        { name: 'of which reading the files', operation: cycling(texts, (text, i) => parseTrajectory(text, files[i])) },
        {
          name: 'legate replay, one-turn files',
          operation: cycling(oneTurnFiles, (file) => runTrajectory({ file, agent: oneTurnAgent, mode: 'replay' })),
        },
      ],
      { rounds: ROUNDS, roundMs: 1000 },
    );
    const [sse, json] = await measureEach(
      [
        { name: `SDK over msw, SSE as recorded`, operation: cycling(anchorFiles, replayerOverHttp(server, true)) },
        { name: `SDK over msw, plain JSON`, operation: cycling(anchorFiles, replayerOverHttp(server, false)) },
      ],
      { rounds: ROUNDS, roundMs: 1000 },
    );

    // The same two sides again, each in a node process of its own, where all the garbage collected is its own; their
    // samples taken in turn, so that the machine's load changing meanwhile falls on both alike.
    const sampled = await measureSidesInProcesses(dir, SAMPLES);
    const alone = {
      replay: summarise('legate replay, a process of its own', sampled.replay),
      parse: summarise('parse only, a process of its own', sampled.parse),
    };

    console.log(
      `Replay, ${FILES} trajectories of ${TURNS} turns (read, parse, check every request, run the tools), ` +
        `CPU time per file, median (min-max) of ${ROUNDS} alternating rounds`,
    );
    const section = 'replay';
    const scale = { ...MILLISECONDS, digits: 3 };
    const ten = { most: 0.1, label: 'goal <= 0.1x (>= 10x its rate)' };
    report(
      { section, line: 'replay beside parse-only, in one process', ours: replay!, anchor: parse!, scale, goal: TWO_X },
      {
        section,
        line:
          'replay beside parse-only, each in a process of its own, sampled in turn ' +
          `(${SAMPLES} samples of 1 s of CPU or more each)`,
        ours: alone.replay,
        anchor: alone.parse,
        scale,
        goal: TWO_X,
      },
      {
        section,
        line: 'reading the files (YAML, then the check), beside parse-only',
        ours: read!,
        anchor: parse!,
        scale,
      },
      {
        section,
        // Where a replay's time goes: what a file costs before its turns (read, settings, the recorded conversation
        // built, the run set up, and its one turn), and each turn after it. The run loop's own cost per turn, with
        // nothing checked, is the loop section's "the loop alone".
        line: 'a one-turn file (what any file costs before its turns), beside a ten-turn file',
        ours: oneTurn!,
        anchor: replay!,
        scale,
        note:
          `each further turn: ${((replay!.median - oneTurn!.median) / (TURNS - 1)).toFixed(1)} µs ` +
          `(the ten-turn file's median beyond the one-turn file's, over ${TURNS - 1} turns)`,
      },
      {
        section,
        line: "replay beside parse-only through js-yaml's ES module build (the bench's floor until now)",
        ours: replay!,
        anchor: esm!,
        scale,
      },
      {
        section,
        line: `beside the SDK over msw, SSE (${ANCHOR_FILES} files)`,
        ours: replay!,
        anchor: sse!,
        scale,
        goal: ten,
      },
      {
        section,
        line: `beside the SDK over msw, JSON (${ANCHOR_FILES} files)`,
        ours: replay!,
        anchor: json!,
        scale,
        goal: ten,
      },
      {
        section,
        line: `${FILES} files in ${((replay!.median * FILES) / 1e6).toFixed(2)} s of CPU`,
        ours: replay!,
        scale,
        goal: { absolute: (median) => median * FILES < 2e6, label: `goal < 2 s (${2000 / FILES} ms per file)` },
      },
    );
    const inProcess = costRatio({ ours: replay!, anchor: parse! })!;
    const separate = costRatio({ ours: alone.replay, anchor: alone.parse })!;
    const agreement = inProcess / separate - 1;
    const perFile = replay!.median / alone.replay.median - 1;
    const percent = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(0)}%`;
    console.log(
      `  agreement: the in-process ratio is ${percent(agreement)} from the separate processes' ` +
        `(goal within 20%: ${Math.abs(agreement) <= 0.2 ? 'met' : 'NOT met'}); replay's cost per file ` +
        `${percent(perFile)}`,
    );
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
