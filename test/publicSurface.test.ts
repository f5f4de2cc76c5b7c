import { describe, expect, it } from 'vitest';
import * as vitestEntry from '../src/assert/vitest.js';
import * as reporterEntry from '../src/intercept/obsoleteTrajectoriesReporter.js';
import * as fuzzEntry from '../src/fuzz/index.js';
import * as legate from '../src/index.js';
import * as sqliteEntry from '../src/store/sqlite.js';
import * as postgresEntry from '../src/store/postgres.js';
import * as interceptEntry from '../src/intercept/index.js';
import * as mcpEntry from '../src/mcp/index.js';
import * as openapiEntry from '../src/openapi/index.js';
import * as viewEntry from '../src/view/index.js';

/**
 * The values each entry point exports: the product's surface, not legate's own test helpers (those
 * are imported from their modules). A change here is a change to the public API: add a name only
 * when a user needs it (docs, examples or the CLI use it), and say so in the docs.
 */
const SURFACE = {
  legate: [
    // Errors: the base, and every class a user can catch.
    'LegateError',
    'UsageError',
    'AgentConfigurationError',
    'ModelResponseError',
    'OutcomeUnknownError',
    'OutputSchemaError',
    'RuleConfigurationError',
    'ScriptExhaustedError',
    'ScriptNotDoneError',
    'SecretInTrajectoryError',
    'StoreError',
    'StreamAbandonedError',
    'StructuredOutputError',
    'SubAgentSuspendedError',
    'SuspensionError',
    'ToolDeclarationError',
    'ToolOutputError',
    'ToolResultError',
    'TrajectoryDivergenceError',
    'SamplesFailedError',
    'TrajectoryFileError',
    'TrajectoryFormatError',
    'TrajectoryNotFoundError',
    'TransportError',
    // Agents, tools, safety.
    'Agent',
    'defineTool',
    'isDefinedTool',
    'serverTool',
    'isServerTool',
    'defaultServerToolUntrusted',
    'toolError',
    'rules',
    'policies',
    'UNATTRIBUTED_SOURCE',
    'DEFAULT_MAX_TOKENS',
    'DEFAULT_MAX_TURNS',
    'DEFAULT_STALE_AFTER_MS',
    'MIN_SUSPENSION_KEY_BYTES',
    // Transports.
    'AnthropicTransport',
    'ScriptedTransport',
    'reply',
    'ReplayTransport',
    'RecordingTransport',
    // The canonical stream of a response, for a transport of your own without real streaming.
    'streamEventsOf',
    // Stores for suspended runs (a store of your own checks the versions).
    'MemoryStateStore',
    'FileStateStore',
    'MissingPeerDependencyError',
    'ModuleImportError',
    'STORE_SCHEMA_VERSION',
    'SUSPENSION_VERSION',
    // The agent graph (legate fuzz lists an agent's tools with it).
    'toolsReachableFrom',
    // Assertions without vitest.
    'assertThat',
    'SEQUENCE_MODES',
    // The safety audit of a trajectory (toHaveNoUnsafeFlow and legate audit use it).
    'auditTrajectory',
    // Trajectories and recording.
    'TRAJECTORY_VERSION',
    'MAX_TRAJECTORY_BYTES',
    'parseTrajectory',
    'serializeTrajectory',
    'conversationsOf',
    'samplesOf',
    'loadTrajectory',
    'saveTrajectory',
    'diffTrajectories',
    'summarizeChanges',
    // A model upgrade's impact (legate rerecord, legate compare).
    'rerecordTrajectory',
    'compareTrajectories',
    'COMPLETE_STOP_REASONS',
    'summarizeComparison',
    'toolChanges',
    'MATCH_LEVELS',
    'RUN_TOOLS_CHOICES',
    'DEFAULT_PLACEHOLDER',
    'findSecret',
    'BUILT_IN_SECRET_PATTERNS',
    'runTrajectory',
    'startRecordingProxy',
    'resolveMode',
    'RECORDING_MODES',
    'fromRun',
    'defineConfig',
    'ConfigError',
    // The project and its settings as legate finds them: `legate replay` and `legate validate` use these,
    // and so does a script or test runner of the user's that replays files as legate does.
    'loadProject',
    'configShown',
    'resolveReplaySettings',
    'isMatchLevel',
  ],
  'legate/fuzz': [
    'validInput',
    'malformedInput',
    'fuzzTool',
    'fuzzInjection',
    'FindingOutputError',
    'INJECTION_TEMPLATES',
    // `legate fuzz` uses these, and so does a fuzz script of the user's over the same modules.
    'findFuzzTargets',
    'checkOutFolder',
    // Attack suites (`legate attack`): the defence modes a report measures.
    'DEFENCE_MODES',
    'runAttackSuite',
    'AttackSuiteError',
    'loadAttackSuite',
  ],
  'legate/vitest': ['replayTrajectory'],
  // A reporter vitest loads by name (`reporters: ['default', 'legate/vitest/reporter']`): its default export.
  'legate/vitest/reporter': ['default'],
  'legate/sqlite': ['SqliteStateStore'],
  'legate/postgres': ['PostgresStateStore'],
  'legate/intercept': [
    'interceptAnthropic',
    'interceptThisTest',
    'startInterception',
    'startRecordingProxy',
    'startStandIn',
    'stopInterception',
  ],
  // Tools from MCP servers and the posture of each (legate mcp list), and legate tools served over MCP (legate mcp
  // serve uses the last two).
  'legate/mcp': ['mcpTools', 'mcpToolPosture', 'McpPinError', 'McpCallError', 'serveMcp', 'loadServeModule'],
  // Tools from an OpenAPI document (legate openapi prints their summary).
  'legate/openapi': ['openApiTools', 'OpenApiError', 'OpenApiCallError'],
  // The HTML viewer (legate view, legate replay --reporter html, legate diff --html use it).
  'legate/view': [
    'viewHtml',
    'ViewPage',
    'diffHtml',
    'describeUsage',
    'resultText',
    'describeUntraced',
    // legate compare's table and its HTML page.
    'compareHtml',
    'COMPARISON_COLUMNS',
    'comparisonCells',
    'comparisonDetails',
    'summaryLine',
  ],
};

describe('the public surface', () => {
  it.each([
    ['legate', legate],
    ['legate/fuzz', fuzzEntry],
    ['legate/vitest', vitestEntry],
    ['legate/vitest/reporter', reporterEntry],
    ['legate/sqlite', sqliteEntry],
    ['legate/postgres', postgresEntry],
    ['legate/intercept', interceptEntry],
    ['legate/mcp', mcpEntry],
    ['legate/openapi', openapiEntry],
    ['legate/view', viewEntry],
  ] as const)('%s exports exactly the values a user needs', (entry, module) => {
    expect(Object.keys(module).sort()).toEqual([...SURFACE[entry]].sort());
  });
});
