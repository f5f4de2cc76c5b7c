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
 * The mode in force: `LEGATE_MODE` wins over the option, so CI and a developer can switch a
 * whole suite; without either, `replay` under CI (where nothing may go live) and `auto` elsewhere.
 */
export function resolveMode(option?: RecordingMode, env: NodeJS.ProcessEnv = process.env): RecordingMode {
  const fromEnv = env.LEGATE_MODE;
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!RECORDING_MODES.includes(fromEnv as RecordingMode)) {
      throw new UsageError('invalid_recording_mode', `LEGATE_MODE must be one of ${RECORDING_MODES.join(', ')}, but it was '${fromEnv}'.`);
    }
    return fromEnv as RecordingMode;
  }
  if (option !== undefined) return option;
  return env.CI !== undefined && env.CI !== '' && env.CI !== 'false' ? 'replay' : 'auto';
}
