import { describeValue } from '../json/describeValue.js';
import { isPlainObject } from '../json/jsonValue.js';

/** How a run's OpenTelemetry spans are made (docs/scale.md, "OpenTelemetry traces"). */
export interface TelemetryOptions {
  /**
   * Record the conversation on the spans: the system prompt, the messages sent and received, tool
   * arguments and results. Default: the environment's OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT
   * (`true` records), else no content at all.
   */
  recordContent?: boolean;
}

/** The standard variable that opts GenAI instrumentations into recording message content. */
export const CONTENT_ENV = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT';

/**
 * Whether a run records content on its spans, decided once: the run's option, else the agent's,
 * else the environment variable (`true`, any case), else not.
 */
export function recordsContent(
  run: TelemetryOptions | undefined,
  agent: TelemetryOptions | undefined,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  const chosen = run?.recordContent ?? agent?.recordContent;
  if (chosen !== undefined) return chosen;
  return env[CONTENT_ENV]?.trim().toLowerCase() === 'true';
}

/** What is wrong with a `telemetry` option, said for the option named, or undefined. */
export function telemetryOptionProblem(option: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value))
    return `'${option}' must be an object such as { recordContent: true }, but it was ${describeValue(value)}.`;
  for (const key of Object.keys(value))
    if (key !== 'recordContent')
      return `'${option}' has no option '${key}'; the one it takes is 'recordContent' (a boolean).`;
  const record = value.recordContent;
  if (record !== undefined && typeof record !== 'boolean')
    return `'${option}.recordContent' must be true or false, but it was ${describeValue(record)}.`;
  return undefined;
}
