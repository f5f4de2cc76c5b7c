import { existsSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import type { RecordingMode } from '../recording/mode.js';
import { loadProject } from '../replay/projectConfig.js';
import { resolveReplaySettings } from '../replay/replaySettings.js';
import type { ReplayRunner } from '../replay/rerecordCommand.js';
import type { MatchLevel } from '../trajectory/matchLevel.js';
import { normalisationRedactions, type NormalisationChoice } from '../trajectory/normalisations.js';
import { createRedactor, type Redaction } from '../trajectory/redaction.js';
import { loadTrajectory, recordFirst } from '../trajectory/trajectoryFile.js';
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

/** One interception's recording or replay, behind whatever front end hands it the requests. */
export interface InterceptSession extends Omit<Interception, 'close'> {
  /** The file as messages name it. */
  readonly shown: string;
  /** Answers one `POST …/messages` request: from the file, or from upstream (recording what came back). */
  answer(request: Request, upstream: Upstream): Promise<Response>;
  /** Whether a divergence ended the replay: a front end may report it at once. */
  readonly failure: Error | undefined;
  /** As Interception.close; `whyNothing` says why no request may have arrived, when none did. */
  close(whyNothing: string): Promise<void>;
}

/**
 * Opens a session: the settings resolved as for runTrajectory (options, then the project's config, then the
 * file), the mode decided (`auto`: replay when the file exists), the file read for a replay. `before`, when given,
 * runs once the mode is known to record or replay, before anything is read: what the front end needs to intercept
 * at all (msw) is refused ahead of anything about the file.
 */
export async function openSession(
  options: SessionOptions,
  before: () => Promise<unknown> = async () => {},
): Promise<InterceptSession> {
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
  await before();
  if (mode === 'replay') {
    const trajectory = loadTrajectory(file, recordFirst(settings.rerecord));
    const replaySettings = settingsFor(trajectory);
    const normalised = trajectory.normalised ?? [];
    const redact = createRedactor([...replaySettings.redactions, ...normalisationRedactions(normalised)]);
    const replay = new ExchangeReplay(
      trajectory,
      { file: shown, rerecord: settings.rerecord },
      replaySettings.match,
      redact,
      normalised,
    );
    return {
      mode,
      file,
      shown,
      trajectory,
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
      close: async (whyNothing) => {
        const failure = replay.finish(whyNothing);
        if (failure !== undefined) throw failure;
      },
    };
  }
  const recording = new ExchangeRecording({
    file,
    shown,
    name: options.name,
    agent: options.agent ?? 'intercepted',
    normalise: options.normalise ?? {},
    saveOptions: { redactions: settings.redactions, secrets: settings.secrets },
  });
  return {
    mode,
    file,
    shown,
    get trajectory() {
      return recording.written;
    },
    failure: undefined,
    answer: (request, upstream) => recording.answer(request, upstream),
    close: async (whyNothing) => recording.save(whyNothing),
  };
}

/** A replay's answer as the HTTP response the client gets. */
function answerOf(answer: ReturnType<ExchangeReplay['answer']>): Response {
  if (answer.kind === 'json') return Response.json(answer.body);
  if (answer.kind === 'sse') return new Response(answer.body, { headers: { 'content-type': 'text/event-stream' } });
  // A 400 the client does not retry: it fails at once with the divergence as its message.
  return apiErrorResponse(400, 'invalid_request_error', answer.error.message);
}
