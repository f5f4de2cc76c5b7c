import { UsageError } from '../errors/UsageError.js';

/**
 * - `replay`: serve the recording, offline; a missing file is an error.
 * - `record`: run live and write the file, replacing any recording.
 * - `auto`: replay if the file exists, else record.
 * - `passthrough`: run live and write nothing.
 */
export type RecordingMode = 'replay' | 'record' | 'auto' | 'passthrough';

export const RECORDING_MODES: readonly RecordingMode[] = ['replay', 'record', 'auto', 'passthrough'];

/**
 * The mode in force, first of:
 * 1. `LEGATE_MODE` (when set and not empty): it wins over everything, a `mode` written in code
 *    included, so CI or a developer switches a whole suite, and so `LEGATE_MODE=record <the
 *    command that ran it>`, the advice every divergence message gives, always re-records;
 * 2. `option`: the `mode` passed in code (or `record` under `vitest -u`, for `replayTrajectory`);
 * 3. `replay` under CI (`CI` set, not `false`), where nothing may go live;
 * 4. `fallback`: `auto` for `runTrajectory`, `replay` for `legate replay`.
 */
export function resolveMode(
  option?: RecordingMode,
  env: NodeJS.ProcessEnv = process.env,
  fallback: RecordingMode = 'auto',
): RecordingMode {
  const fromEnv = legateMode(env);
  if (fromEnv !== undefined) return fromEnv;
  if (option !== undefined) return option;
  return env.CI !== undefined && env.CI !== '' && env.CI !== 'false' ? 'replay' : fallback;
}

/** `LEGATE_MODE`, checked; `undefined` when it is unset or empty. */
export function legateMode(env: NodeJS.ProcessEnv = process.env): RecordingMode | undefined {
  const fromEnv = env.LEGATE_MODE;
  if (fromEnv === undefined || fromEnv === '') return undefined;
  if (!RECORDING_MODES.includes(fromEnv as RecordingMode)) {
    throw new UsageError(
      'invalid_recording_mode',
      `LEGATE_MODE must be one of ${RECORDING_MODES.join(', ')}, but it was '${fromEnv}'.`,
    );
  }
  return fromEnv as RecordingMode;
}
