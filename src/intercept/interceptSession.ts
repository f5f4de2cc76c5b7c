import { existsSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import type { RecordingMode } from '../recording/mode.js';
import { loadProject } from '../replay/projectConfig.js';
import { resolveReplaySettings, type ReplaySettings } from '../replay/replaySettings.js';
import type { SampleRule } from '../replay/sampleRule.js';
import type { ReplayRunner } from '../replay/rerecordCommand.js';
import type { MatchLevel } from '../trajectory/matchLevel.js';
import { normalisationRedactions, type NormalisationChoice } from '../trajectory/normalisations.js';
import { createRedactor, type Redaction } from '../trajectory/redaction.js';
import { samplesOf } from '../trajectory/samplesOf.js';
import { loadTrajectory, recordFirst } from '../trajectory/trajectoryFile.js';
import { UsageError } from '../errors/UsageError.js';
import type { Trajectory } from '../trajectory/types.js';
import { apiErrorResponse, jsonBody } from './apiHttp.js';
import { forwardUpstream, type Upstream } from './forwardUpstream.js';
import { ExchangeRecording } from './exchangeRecording.js';
import { ExchangeReplay } from './replayExchanges.js';

/** What records or replays Messages API traffic, whichever way it arrives (interceptAnthropic, the proxy). */
export interface SessionOptions {
  /** The trajectory file: absolute, or relative to the project root (the config's folder). */
  file: string;
  /** `LEGATE_MODE` wins over this (see resolveMode). Without either: `replay` under CI, else `auto`. */
  mode?: RecordingMode;
  /** How closely a replayed request must match. Default: the config's, else the file's `match:`, else `exact`. */
  match?: MatchLevel;
  /** Applied after the config's redactions, to the file and (the same way) to each request at replay. */
  redactions?: readonly Redaction[];
  /** Patterns beyond the built-in ones and the config's that must never be saved. */
  secrets?: readonly (RegExp | string)[];
  /**
   * Each normalisation on or off (docs/intercept.md, Normalisations). Default: `cacheControl` and `userId` on,
   * `claudeCodeEnvironment` on for Claude Code's traffic. The file names the ones applied; a replay applies those.
   */
  normalise?: NormalisationChoice;
  /** The project's config file, or `false` for none. Default: the nearest legate.config.* (see runTrajectory). */
  config?: string | false;
  /** Where the config is looked for and paths in messages are relative to. Default: `process.cwd()`. */
  cwd?: string;
  /** The trajectory's name. Default: the file name without its extension. */
  name?: string;
  /** The agent name the file records. Default: `intercepted`. */
  agent?: string;
  /**
   * Who runs the code under test, which decides the re-record command a divergence quotes. Default:
   * vitest (`LEGATE_MODE=record npx vitest run`) under vitest, else a program run again with `LEGATE_MODE=record`.
   */
  runner?: ReplayRunner;
}

/**
 * What the body form adds (interceptAnthropic(options, body), interceptThisTest(options, body)): the body runs once
 * per sample, recorded or replayed.
 */
export interface SampleOptions {
  /**
   * How many times a recording runs the body, each run a sample of its own in the one file (a model answers
   * differently from run to run). Default: the config's, else 1. A replay runs the body once per sample the file holds.
   */
  samples?: number;
  /**
   * When a file of several samples passes: `'all'` of them (pass^k), `{ atLeast: m }` or `{ rate: r }` (0 < r <= 1).
   * Default: the config's, else `'all'`, so nothing gets laxer by accident.
   */
  pass?: SampleRule;
}

/** Interception in force: close it once the code under test is done. */
export interface Interception {
  /** What the interception does: serve the file, record it, or neither (passthrough). */
  readonly mode: 'replay' | 'record' | 'passthrough';
  /** The trajectory file, absolute. */
  readonly file: string;
  /** The trajectory replayed, or (after close) the one written; absent for passthrough. */
  readonly trajectory: Trajectory | undefined;
  /**
   * Stops intercepting. In record mode writes the file (redacted, scanned for secrets, atomically;
   * left untouched when nothing but `recordedAt` would change). In replay mode throws the first
   * TrajectoryDivergenceError, or `unused_turns` when the code asked for fewer responses than recorded.
   */
  close(): Promise<void>;
}

/** What every session has, whatever its mode. */
interface SessionBase extends Omit<Interception, 'close'> {
  /** The file as messages name it. */
  readonly shown: string;
  /** Answers one `POST …/messages` request: from the file, or from upstream (recording what came back). */
  answer(request: Request, upstream: Upstream): Promise<Response>;
  /** Whether a divergence ended the replay (of the sample in progress): a front end may report it at once. */
  readonly failure: Error | undefined;
  /**
   * As Interception.close; `whyNothing` says why no request may have arrived, when none did. A replay ends the sample
   * in progress unless it has ended; a recording writes every sample into the file.
   */
  close(whyNothing: string): Promise<void>;
}

/** A session that intercepts nothing: every request goes on, and nothing is written. */
interface PassthroughSession extends SessionBase {
  readonly mode: 'passthrough';
}

/** A session that records or replays, one sample after another (a session without a body has one). */
interface SampledSession extends SessionBase {
  readonly mode: 'replay' | 'record';
  /** How many samples a body runs: the file's, in a replay; the `samples` setting, in a recording (1 without a
   * body). */
  readonly samples: number;
  /** The rule a file of several samples passes by (`pass`: the option, the config's, else `all`). */
  readonly pass: SampleRule;
  /**
   * Begins sample `n` (1-based, each once, in order; the first is in progress when the session opens): the requests
   * from now on are answered from that sample's exchanges (replay) or recorded as that sample (record).
   */
  sample(n: number): SessionSample;
}

/** One sample in progress. */
interface SessionSample {
  /** In a replay, the sample served, as a trajectory of its own (see samplesOf); in a recording, undefined. */
  readonly trajectory: Trajectory | undefined;
  /** The divergence that ended this sample's replay, if one did. */
  readonly failure: Error | undefined;
  /**
   * Ends the sample: the sample as replayed or recorded. Throws its divergence, the turns it never asked for, or
   * (recording) `nothing_to_record`, an answer that cannot be read, traffic that cannot be recorded.
   */
  finish(whyNothing: string): Trajectory;
  /** Ends the sample whatever happened: the sample, or undefined when it recorded nothing (after a body failed). */
  kept(): Trajectory | undefined;
}

/** One interception's recording or replay, behind whatever front end hands it the requests. */
export type InterceptSession = PassthroughSession | SampledSession;

/** How a front end opens a session. */
interface SessionFront {
  /**
   * Runs once the mode is known to record or replay, before anything is read: what the front end needs to intercept
   * at all (msw) is refused ahead of anything about the file.
   */
  before?: () => Promise<unknown>;
  /** Whether the code under test is given as a body run once per sample (else: one sample, closed by the caller). */
  body?: boolean;
}

/**
 * Opens a session: the settings resolved as for runTrajectory (options, then the project's config, then the
 * file), the mode decided (`auto`: replay when the file exists), the file read for a replay. Without a body, `samples`
 * and `pass` are refused, a recording makes one sample, and a file of several samples is refused in a replay.
 */
export async function openSession(
  options: SessionOptions & SampleOptions,
  front: SessionFront = {},
): Promise<InterceptSession> {
  if (front.body !== true) refuseSampleOptions(options);
  const cwd = options.cwd ?? process.cwd();
  const project = await loadProject({ cwd, ...(options.config === undefined ? {} : { config: options.config }) });
  const settingsFor = (trajectory?: Trajectory) =>
    resolveReplaySettings({
      given: options,
      project,
      cwd,
      ...(options.runner === undefined ? {} : { runner: options.runner }),
      ...(trajectory === undefined ? {} : { trajectory }),
    });
  const settings = settingsFor();
  const file = settings.file!;
  const shown = isAbsolute(options.file) ? options.file : relative(cwd, file) || file;
  const mode = settings.mode === 'auto' ? (existsSync(file) ? 'replay' : 'record') : settings.mode;
  if (mode === 'passthrough') {
    return {
      mode,
      file,
      shown,
      trajectory: undefined,
      failure: undefined,
      answer: async (request, upstream) => (await forwardUpstream(request, upstream)).response,
      close: async () => {},
    };
  }
  await front.before?.();
  if (mode === 'replay') return replaySession(file, shown, settings, settingsFor, front.body === true);
  const samples = front.body === true ? settings.samples : 1;
  const recording = new ExchangeRecording({
    file,
    shown,
    name: options.name,
    agent: options.agent ?? 'intercepted',
    normalise: options.normalise ?? {},
    saveOptions: { redactions: settings.redactions, secrets: settings.secrets },
    samples,
  });
  const recorded: SessionSample = {
    trajectory: undefined,
    failure: undefined,
    finish: (whyNothing) => recording.finishSample(whyNothing),
    kept: () => recording.endSample(),
  };
  return {
    mode,
    file,
    shown,
    samples,
    pass: settings.pass,
    get trajectory() {
      return recording.written;
    },
    failure: undefined,
    answer: (request, upstream) => recording.answer(request, upstream),
    sample: (n) => {
      if (n > 1) recording.nextSample();
      return recorded;
    },
    close: async (whyNothing) => recording.save(whyNothing),
  };
}

/** A replay: the file read, and each of its samples served in turn by an ExchangeReplay of its own. */
function replaySession(
  file: string,
  shown: string,
  settings: ReplaySettings,
  settingsFor: (trajectory: Trajectory) => ReplaySettings,
  body: boolean,
): SampledSession {
  const trajectory = loadTrajectory(file, recordFirst(settings.rerecord));
  const samples = samplesOf(trajectory);
  if (!body && samples.length > 1)
    throw new UsageError(
      'invalid_samples',
      `${shown} holds ${samples.length} samples, each a run of the code under test, so a replay runs that code ` +
        'once per sample: give it as a function, interceptAnthropic(options, async (interception, { sample, of }) ' +
        '=> { ... }) or interceptThisTest(options, body) (docs/intercept.md, "Samples at the boundary"). The ' +
        'recording proxy replays files of one sample.',
    );
  const replaySettings = settingsFor(trajectory);
  const normalised = trajectory.normalised ?? [];
  const redact = createRedactor([...replaySettings.redactions, ...normalisationRedactions(normalised)]);
  const replayOf = (sample: Trajectory) =>
    new ExchangeReplay(sample, { file: shown, rerecord: settings.rerecord }, replaySettings.match, redact, normalised);
  let replay = replayOf(samples[0]!);
  /** Whether a body's sample has ended the replay in progress: then close() has nothing left to end. */
  let ended = false;
  const finish = (whyNothing: string) => {
    const failure = replay.finish(whyNothing);
    if (failure !== undefined) throw failure;
  };
  return {
    mode: 'replay',
    file,
    shown,
    trajectory,
    samples: samples.length,
    pass: replaySettings.pass,
    get failure() {
      return replay.failure;
    },
    answer: async (request) => {
      const body = await jsonBody(request);
      if (body === undefined)
        return apiErrorResponse(
          400,
          'invalid_request_error',
          'The request body is not JSON: nothing recorded answers it.',
        );
      return answerOf(replay.answer(body));
    },
    sample: (n) => {
      const sample = samples[n - 1]!;
      if (n > 1) replay = replayOf(sample);
      ended = false;
      const served = replay;
      return {
        trajectory: sample,
        get failure() {
          return served.failure;
        },
        finish: (whyNothing) => {
          ended = true;
          finish(whyNothing);
          return sample;
        },
        kept: () => {
          ended = true;
          return sample;
        },
      };
    },
    close: async (whyNothing) => {
      if (!ended) finish(whyNothing);
    },
  };
}

/** Without a body there is one sample: the settings for several are refused, naming the form that takes them. */
function refuseSampleOptions(options: SampleOptions): void {
  const given = (['samples', 'pass'] as const).filter((name) => options[name] !== undefined);
  if (given.length === 0) return;
  throw new UsageError(
    'invalid_samples',
    `The ${given.map((name) => `'${name}'`).join(' and ')} option${given.length === 1 ? '' : 's'} run the code ` +
      'under test once per sample, so they need that code as a function: interceptAnthropic(options, async ' +
      '(interception, { sample, of }) => { ... }) or interceptThisTest(options, body) (docs/intercept.md, ' +
      '"Samples at the boundary"). Without one, an interception records one sample.',
  );
}

/** A replay's answer as the HTTP response the client gets. */
function answerOf(answer: ReturnType<ExchangeReplay['answer']>): Response {
  if (answer.kind === 'json') return Response.json(answer.body);
  if (answer.kind === 'sse') return new Response(answer.body, { headers: { 'content-type': 'text/event-stream' } });
  // A 400 the client does not retry: it fails at once with the divergence as its message.
  return apiErrorResponse(400, 'invalid_request_error', answer.error.message);
}
