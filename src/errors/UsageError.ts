import { LegateError } from './LegateError.js';

/** Why legate refused what it was called with; each code names the argument or setting at fault. */
export type UsageErrorCode =
  /** `agent.run`'s input is neither a non-empty string nor a non-empty list of content blocks. */
  | 'invalid_run_input'
  /** `agent.run`'s `history` is not a list of Messages API messages. */
  | 'invalid_history'
  /** `agent.run`'s `guard` is not a guard state as a run returns it (`result.guard`). */
  | 'invalid_guard_state'
  /** A run's `telemetry` option (`agent.run`, `resume`, `recover`) is not `{ recordContent?: boolean }`. */
  | 'invalid_telemetry_option'
  /** An `agent.stream()` was iterated a second time: its events are read once. */
  | 'stream_read_twice'
  /** A matcher or `assertThat` was given something other than an `AgentResult` or a `Trajectory`. */
  | 'not_a_run'
  /** `toHaveToolSequence` (or `toolSequence`) was given a `mode` that is not one of `SEQUENCE_MODES`. */
  | 'invalid_sequence_mode'
  /**
   * `toMatchTrajectory` (or `matchesTrajectory`) was given a reference that is not a list of `{ tool, input? }`, a
   * `Trajectory`, an `AgentResult` or the path of a trajectory file.
   */
  | 'invalid_trajectory_reference'
  /** `toMatchTrajectory` (or `matchesTrajectory`) was given options other than `{ order?, args? }` it can read. */
  | 'invalid_trajectory_match_option'
  /** A declared pattern (a redaction, a secret) is neither a RegExp nor a string. */
  | 'invalid_pattern'
  /** A redaction's `path` names no key. */
  | 'invalid_redaction_path'
  /** `LEGATE_MODE` is set to something other than a recording mode. */
  | 'invalid_recording_mode'
  /** A `runTools` setting (config, option, `--run-tools`) is not `safe`, `all`, `none` or `{ default, run, serve }`. */
  | 'invalid_run_tools'
  /**
   * A number of samples (`samples`, `--samples`) is not a whole number from 1 to 100, or a rule for passing them
   * (`pass`, `--pass`) is not `all`, `{ atLeast }` or `{ rate }`, or asks for more samples than the file holds; or
   * either was given to `interceptAnthropic` (`interceptThisTest`) without a body, or a file of several samples was
   * to be replayed without one.
   */
  | 'invalid_samples'
  /** Recording a trajectory needs the user's `input`, and none was given. */
  | 'missing_input'
  /** A recorded run made no model call, so there is nothing to write. */
  | 'nothing_to_record'
  /**
   * A fork (`forkAt`, `legate fork`) cannot be made as asked: no parent or no file of its own, its file is the
   * parent, a turn or sample the parent does not have, or a parent that cannot be forked (recorded at the HTTP
   * boundary, a fuzz finding).
   */
  | 'invalid_fork'
  /**
   * A `ScriptedTransport` was given neither a list of steps nor a function of the request, or a stream delivery
   * it cannot serve.
   */
  | 'invalid_script'
  /** An `AnthropicTransport` option (`maxRetries`, `timeout`, `stream`) is not one it can use. */
  | 'invalid_transport_option'
  /**
   * A live transport setting (`runTrajectory`'s `transport`) is neither a transport nor a function that
   * returns one, or that function returned something else.
   */
  | 'invalid_transport'
  /** A tool to fuzz has an input schema no value satisfies (none could be generated). */
  | 'unsatisfiable_schema'
  /** `auditTrajectory` (or `toHaveNoUnsafeFlow`, the config's `audit`) was given declarations it cannot read. */
  | 'invalid_audit_declarations'
  /** `toHaveNoUnsafeFlow` audits a recorded run: it was given something other than a `Trajectory`. */
  | 'not_a_trajectory'
  /** `interceptAnthropic` was called while another interception was still in force. */
  | 'interception_active'
  /**
   * `interceptAnthropic` saw traffic it cannot record (a conversation that starts with history, or is edited; samples
   * that do not start alike).
   */
  | 'intercept_unsupported'
  /**
   * An `interceptAnthropic` option is not one it can use (a base URL that is not a URL, an unknown `otherHosts`), or
   * its body is not a function.
   */
  | 'invalid_intercept_option'
  /** `interceptThisTest` was called where no vitest test is running, so there is no test to name its file after. */
  | 'not_in_a_test'
  /** `interceptThisTest` was called twice in one test, or in two tests of a file with the same names: one file each. */
  | 'trajectory_file_in_use'
  /** `serveMcp` (or `legate mcp serve`) was given an option it cannot use: tools, contracts, transport, port. */
  | 'invalid_serve_option'
  /** A store was constructed with something it cannot use (`PostgresStateStore`'s connection or `schema`). */
  | 'invalid_store_option'
  /** `startStandIn` (or `legate stand-in`) was given no script or trajectory, both, a bad port, or a busy one. */
  | 'invalid_stand_in_option';

/**
 * legate was called with something it cannot use: the message says what was expected, what
 * arrived and what to do; `code` says which argument or setting, for a program.
 */
export class UsageError extends LegateError {
  constructor(
    readonly code: UsageErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
