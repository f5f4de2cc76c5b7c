import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as vitestEntry from '../../src/assert/vitest.js';
import * as fuzzEntry from '../../src/fuzz/index.js';
import * as legate from '../../src/index.js';
import * as mcpEntry from '../../src/mcp/index.js';
import * as openapiEntry from '../../src/openapi/index.js';
import { Agent, LegateError, ScriptedTransport, defineTool, reply } from '../../src/index.js';

/** Every entry point's exports: where a user meets legate's errors. */
const entries = { ...legate, ...fuzzEntry, ...vitestEntry, ...mcpEntry, ...openapiEntry };
type Exported = typeof entries;
type ErrorClassName = {
  [K in keyof Exported]: Exported[K] extends abstract new (...args: never[]) => Error ? K : never;
}[keyof Exported];
type Concrete = Exclude<ErrorClassName, 'LegateError'>;
type CodeOf<K extends Concrete> = InstanceType<Exported[K]>['code'];

/**
 * The codes of each error class, as its type declares them: `satisfies` makes tsc refuse a class
 * left out or a code that is not the class's, and `Unlisted` below one of its codes left out.
 * docs/errors.md is checked against this list.
 */
const CODES = {
  LegateError: [],
  UsageError: [
    'invalid_run_input',
    'invalid_history',
    'invalid_guard_state',
    'invalid_telemetry_option',
    'stream_read_twice',
    'not_a_run',
    'invalid_sequence_mode',
    'invalid_trajectory_reference',
    'invalid_trajectory_match_option',
    'invalid_pattern',
    'invalid_redaction_path',
    'invalid_recording_mode',
    'invalid_run_tools',
    'invalid_samples',
    'missing_input',
    'nothing_to_record',
    'invalid_fork',
    'invalid_script',
    'invalid_transport_option',
    'invalid_transport',
    'unsatisfiable_schema',
    'invalid_audit_declarations',
    'not_a_trajectory',
    'intercept_unsupported',
    'interception_active',
    'invalid_intercept_option',
    'not_in_a_test',
    'trajectory_file_in_use',
    'invalid_serve_option',
    'invalid_store_option',
    'invalid_stand_in_option',
  ],
  ModelResponseError: ['invalid_model_response'],
  TransportError: ['transport_failed', 'missing_api_key', 'connection_failed'],
  ScriptExhaustedError: ['script_exhausted'],
  ScriptNotDoneError: ['script_not_done'],
  ToolDeclarationError: [
    'not_a_declaration',
    'invalid_tool_name',
    'duplicate_tool_name',
    'missing_run',
    'invalid_schema',
    'unsupported_schema',
    'unsupported_pattern',
    'invalid_default',
    'invalid_property_name',
    'negative_max_result_length',
    'invalid_option',
    'invalid_server_tool',
  ],
  SubAgentSuspendedError: ['sub_agent_suspended'],
  StreamAbandonedError: ['stream_abandoned'],
  OutputSchemaError: ['invalid_output_schema'],
  ToolOutputError: ['invalid_tool_output'],
  StructuredOutputError: ['invalid_output'],
  OutcomeUnknownError: ['outcome_unknown'],
  SuspensionError: [
    'unsupported_version',
    'wrong_agent',
    'altered',
    'stale_approval',
    'undecided',
    'invalid_decision',
    'already_resumed',
    'claim_active',
    'not_claimed',
    'claim_lost',
  ],
  StoreError: [
    'schema_version',
    'already_claimed',
    'secret_in_record',
    'redaction_breaks_signature',
    'unreadable_record',
    'store_unavailable',
  ],
  AgentConfigurationError: ['invalid_agent_option'],
  RuleConfigurationError: ['invalid_rule'],
  TrajectoryFormatError: ['invalid_trajectory', 'not_a_file', 'too_large', 'unreadable'],
  TrajectoryFileError: ['not_a_file', 'too_large', 'unreadable'],
  TrajectoryDivergenceError: ['trajectory_divergence'],
  SamplesFailedError: ['samples_failed'],
  SecretInTrajectoryError: ['secret_in_trajectory'],
  TrajectoryNotFoundError: ['trajectory_not_found'],
  FindingOutputError: ['empty_folder', 'not_a_folder', 'not_writable', 'outside_folder'],
  AttackSuiteError: ['no_suite', 'invalid_suite', 'invalid_attack_option'],
  ConfigError: ['config_not_found', 'invalid_config'],
  MissingPeerDependencyError: ['missing_peer_dependency'],
  ModuleImportError: ['module_not_found', 'module_import_failed'],
  ToolResultError: ['invalid_tool_result'],
  McpPinError: ['mcp_tool_changed', 'invalid_mcp_pins'],
  McpCallError: ['mcp_server_error', 'mcp_timeout', 'mcp_connection_closed', 'mcp_connect_failed'],
  OpenApiError: [
    'openapi_unreadable',
    'openapi_unsupported_version',
    'openapi_invalid',
    'openapi_invalid_option',
    'openapi_too_many_tools',
    'openapi_too_large',
  ],
  OpenApiCallError: ['openapi_request_failed', 'openapi_timeout'],
} as const satisfies { LegateError: readonly [] } & { [K in Concrete]: readonly CodeOf<K>[] };

type Unlisted = { [K in Concrete]: Exclude<CodeOf<K>, (typeof CODES)[K][number]> }[Concrete];
const everyCodeListed: [Unlisted] extends [never] ? true : Unlisted = true;

type ErrorClass = abstract new (...args: never[]) => Error;
const errorClasses = (Object.entries(entries) as [string, unknown][]).filter(
  (entry): entry is [string, ErrorClass] => typeof entry[1] === 'function' && entry[1].prototype instanceof Error,
);

/** A instance of a class, made with its first listed code where the constructor takes one. */
function instanceOf(name: string, code: string): LegateError {
  const type = errorClasses.find(([exported]) => exported === name)![1] as unknown as new (
    ...args: unknown[]
  ) => LegateError;
  // A class whose message is built from a list takes one (SamplesFailedError: the file, its rule, its samples).
  if (name === 'SamplesFailedError') return new type('x', 'all', []);
  return new type(code, 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x');
}

describe('LegateError: the base of every error legate throws', () => {
  it('is extended by every error class an entry point exports, each with a stable snake_case code', () => {
    expect(everyCodeListed).toBe(true);
    expect(errorClasses.map(([name]) => name).sort()).toEqual(Object.keys(CODES).sort());
    for (const [name, type] of errorClasses) {
      expect(type === LegateError || type.prototype instanceof LegateError, `${name} extends LegateError`).toBe(true);
      if (type === LegateError) continue;
      const codes: readonly string[] = CODES[name as Concrete];
      expect(codes.length, name).toBeGreaterThan(0);
      const first = codes[0]!;
      const error = instanceOf(name, first);
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(name);
      expect(error.code).toBe(first);
      expect(typeof error.abortsRun).toBe('boolean');
    }
    for (const code of Object.values(CODES).flat()) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });

  it('aborts a run only when it says so: a divergence and an exhausted script do, a look-alike does not', async () => {
    expect(instanceOf('TrajectoryDivergenceError', 'trajectory_divergence').abortsRun).toBe(true);
    expect(instanceOf('ScriptExhaustedError', 'script_exhausted').abortsRun).toBe(true);
    const runWith = (thrown: unknown) => {
      const tool = defineTool({
        name: 'act',
        description: 'Acts.',
        input: { type: 'object', properties: {} },
        run: () => {
          throw thrown;
        },
      });
      return new Agent({
        name: 'a',
        model: 'm',
        tools: [tool],
        transport: new ScriptedTransport([reply.toolUse('act', {}), reply.text('Done.')]),
      }).run('go');
    };
    // Property: any error of the user's own, whatever fields it carries, is that tool's failure, never the run's end.
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom('abortsRun', 'code', 'name', 'message'), fc.oneof(fc.boolean(), fc.string())),
        async (fields) => {
          const result = await runWith(Object.assign(new Error('mine'), fields));
          expect(result.toolCalls[0]).toMatchObject({ outcome: 'error', error: { error: 'tool_failed' } });
          expect(result.stopReason).toBe('end_turn');
        },
      ),
      { numRuns: 25 },
    );
    const duckTyped = await runWith({ abortsRun: true });
    expect(duckTyped.toolCalls[0]).toMatchObject({ outcome: 'error' });
    await expect(runWith(instanceOf('ScriptExhaustedError', 'script_exhausted'))).rejects.toMatchObject({
      code: 'script_exhausted',
    });
  });

  it('has its codes documented in docs/errors.md, class by class', () => {
    const rows = [...readFileSync('docs/errors.md', 'utf8').matchAll(/^\| `(\w+)` \| `(\w+)`[^|]*\|/gm)].map(
      ([, code, name]) => `${name}: ${code}`,
    );
    const declared = Object.entries(CODES).flatMap(([name, codes]) =>
      (name === 'TrajectoryFormatError' ? ['invalid_trajectory'] : codes).map((code) => `${name}: ${code}`),
    );
    expect(rows.sort()).toEqual(declared.sort());
  });
});
