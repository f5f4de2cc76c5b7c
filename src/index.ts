// legate: the public API. Anything not exported here may change without notice.

// The base of every error legate throws: a stable `code`, and `abortsRun`.
export { LegateError } from './errors/LegateError.js';
export { UsageError, type UsageErrorCode } from './errors/UsageError.js';

// Tools: declaring them, binding the model's input, shaping their output.
export * from './tools/index.js';

// The Messages API shapes legate speaks.
export type * from './messages/types.js';
export { ModelResponseError } from './messages/parseModelResponse.js';

// Transports: where responses come from.
export {
  TransportError,
  type TransportErrorCode,
  type TransportErrorKind,
  type TransportSetting,
  type Transport,
  type SendOptions,
  type StreamEvent,
} from './transport/transport.js';
export { streamEventsOf } from './transport/streamEventsOf.js';
export { AnthropicTransport, type AnthropicTransportOptions } from './transport/anthropic/AnthropicTransport.js';
export {
  ScriptedTransport,
  ScriptExhaustedError,
  ScriptNotDoneError,
  type ScriptStep,
  type ScriptedTransportOptions,
} from './transport/scripted/ScriptedTransport.js';
export type { StreamDelivery } from './transport/scripted/streamDelivery.js';
export {
  reply,
  type ScriptedReply,
  type ScriptedToolUse,
  type ToolCallSpec,
} from './transport/scripted/scriptedReply.js';
export { ReplayTransport, type ReplayOptions } from './replay/ReplayTransport.js';
export type {
  CallReplay,
  CallDecision,
  DecidedCall,
  ReplayReferee,
  ServedResult,
} from './runtime/replayReferee.js';
export { RUN_TOOLS_CHOICES, type RunTools, type RunToolsChoice } from './replay/runToolsPolicy.js';
export { RecordingTransport } from './transport/recording/RecordingTransport.js';

// The runtime: agents and what their runs produce.
export { Agent } from './runtime/Agent.js';
export type { RunOptions, ResumeOptions, RecoverOptions } from './runtime/runOptions.js';
export { SubAgentSuspendedError } from './runtime/subAgentSuspendedError.js';
export { StreamAbandonedError, type AgentStream, type AgentStreamEvent } from './runtime/agentStream.js';
// Structured outputs: agent.run(input, { output: schema }) sets result.output.
export { StructuredOutputError } from './runtime/structuredOutputError.js';
// Every tool a run of an agent can reach (handoff targets' and sub-agents' included): for tools that list an agent's
// tools, as `legate fuzz` does.
export { toolsReachableFrom } from './runtime/agentGraph.js';
export { OutcomeUnknownError } from './runtime/approval/outcomeUnknownError.js';
export { SuspensionError, type SuspensionErrorCode } from './runtime/approval/suspensionError.js';
export type { ApprovalDecision } from './runtime/approval/approvalDecision.js';
export { DEFAULT_STALE_AFTER_MS } from './runtime/approval/claimLedger.js';
export type { ClaimRecord, ClaimStore } from './runtime/approval/claimRecord.js';
export { SUSPENSION_VERSION } from './runtime/approval/suspension.js';
export type { PendingCall } from './runtime/approval/pendingCall.js';
export type { TaintReview } from './guard/taintReview.js';
export type { Untraced } from './guard/provenance/traceArguments.js';
export type { Handoff } from './runtime/handoff.js';

// Assertions without a test framework (vitest users: import 'legate/vitest').
export { assertThat, type RunAssertions } from './assert/assertThat.js';
export { SEQUENCE_MODES, type SequenceMode } from './assert/toolSequence.js';
export type { LegateMatchers, RunSubject } from './assert/matchers.js';
export type {
  ArgsFunction,
  ArgsMode,
  ReferenceCall,
  TrajectoryArgs,
  TrajectoryMatchOptions,
  TrajectoryOrder,
} from './assert/trajectoryMatch.js';
export type { TrajectoryReference } from './assert/trajectoryReference.js';

// The recording proxy: any process's Messages API traffic, recorded or replayed (needs no peer; also legate/intercept).
export { startRecordingProxy, type RecordingProxy, type RecordingProxyOptions } from './intercept/recordingProxy.js';
export type { Interception, SessionOptions } from './intercept/interceptSession.js';
export type { NormalisationChoice, NormalisationName } from './trajectory/normalisations.js';

// The safety audit of any trajectory (the runtime's, or one recorded at the HTTP boundary).
export { auditTrajectory } from './guard/audit/auditTrajectory.js';
export type { AuditFinding, AuditReport, AuditStep, AuditedCall } from './guard/audit/auditReport.js';
export type { AuditDeclarations, AuditHints } from './guard/auditDeclarations.js';

// Stores for suspended runs.
export { STORE_SCHEMA_VERSION, StoreError, type StateStore, type StoreErrorCode } from './store/stateStore.js';
export type { StoreOptions } from './store/recordWriter.js';
export { MemoryStateStore } from './store/MemoryStateStore.js';
export { FileStateStore } from './store/FileStateStore.js';
export { MissingPeerDependencyError } from './errors/MissingPeerDependencyError.js';
export { ModuleImportError, type ModuleImportProblem } from './files/ModuleImportError.js';
export { AgentConfigurationError } from './runtime/agentConfigurationError.js';
export {
  DEFAULT_MAX_TOKENS,
  DEFAULT_MAX_TURNS,
  MIN_SUSPENSION_KEY_BYTES,
  type AgentOptions,
} from './runtime/agentOptions.js';
export type { HandoffTarget } from './runtime/agentNode.js';
export type { TelemetryOptions } from './telemetry/telemetryOptions.js';
export type {
  CacheControlOption,
  MetadataOption,
  ThinkingOption,
  ToolChoiceOption,
} from './runtime/requestOptions.js';
export type {
  AgentEvent,
  AgentResult,
  BlockedCall,
  PlannedEffect,
  RunState,
  Suspension,
  ToolCall,
  ToolCallOutcome,
} from './runtime/agentResult.js';
export type { KnownStopReason, StopReason } from './runtime/stopReason.js';
export type { ToolCallError, ToolFailure, ToolReportedError, UnknownTool } from './runtime/toolCallError.js';
export type { Usage } from './runtime/runUsage.js';
export type { CompensationReport } from './runtime/compensate.js';

// Safety: contracts, taint, authorization, shadow mode, decided before any tool runs.
export { rules, type Rule } from './guard/rules.js';
export { policies, type Authorizer } from './guard/authorizer.js';
export { RuleConfigurationError } from './guard/checkRules.js';
export type { GuardState } from './guard/guardState.js';
export { UNATTRIBUTED_SOURCE } from './guard/historyGuardState.js';
export type { GuardRule } from './guard/guardContext.js';
export type { ExecutionMode } from './guard/shadow.js';
export type { TaintPolicy } from './tools/taintPolicy.js';
export type { AgentEventListener } from './runtime/events.js';
export type { ToolStub } from './runtime/executeToolCall.js';

// Trajectories: the YAML format, reading, writing, matching and diffing.
export * from './trajectory/types.js';
export { parseTrajectory } from './trajectory/parseTrajectory.js';
export { MAX_TRAJECTORY_BYTES } from './trajectory/limits.js';
export { serializeTrajectory } from './trajectory/serialize.js';
export { conversationsOf } from './trajectory/conversationsOf.js';
export { samplesOf } from './trajectory/samplesOf.js';
export { TrajectoryFileError, TrajectoryFormatError, type TrajectoryFileProblem } from './trajectory/errors.js';
export { TrajectoryDivergenceError, type DivergenceKind } from './replay/divergenceError.js';
export { SamplesFailedError, type SampleVerdict } from './replay/samplesFailedError.js';
export type { SampleRule } from './replay/sampleRule.js';
export type { SampleCheck, SampleOf } from './replay/sampleRuns.js';
export { isMatchLevel, MATCH_LEVELS, type MatchLevel } from './trajectory/matchLevel.js';
export { diffTrajectories, summarizeChanges, type TrajectoryChange } from './trajectory/diffTrajectories.js';
export { COMPLETE_STOP_REASONS } from './trajectory/completeStopReasons.js';
// A model upgrade's impact: a file recorded again (rerecordTrajectory) compared with the old one (legate compare).
export {
  compareTrajectories,
  type ColumnChange,
  type ComparedCall,
  type ComparedDecision,
  type DecisionChange,
  type PassCount,
  type Tokens,
  type TrajectoryComparison,
} from './trajectory/compareTrajectories.js';
export { summarizeComparison, type ComparedFile, type ComparisonSummary } from './trajectory/comparisonSummary.js';
export {
  toolChanges,
  type ReplayToolChange,
  type ToolChange,
  type ToolChangeField,
  type ToolChangePart,
} from './replay/toolChanges.js';
export { DEFAULT_PLACEHOLDER, type Redaction } from './trajectory/redaction.js';
export {
  findSecret,
  SecretInTrajectoryError,
  BUILT_IN_SECRET_PATTERNS,
  type SecretFinding,
  type SecretMatch,
  type SecretKind,
} from './trajectory/secretScan.js';
export type { SecretEncoding } from './trajectory/decodedView.js';

// Recording: running an agent against a trajectory file, in a mode.
export { runTrajectory } from './replay/runTrajectory.js';
export { rerecordTrajectory, type RerecordOptions } from './replay/rerecordTrajectory.js';
export type { TrajectoryRun, TrajectoryRunOptions } from './replay/trajectoryRunOptions.js';
export type { ForkAt } from './replay/forkSettings.js';
export type { ForkOfRun } from './replay/forkParentState.js';
export { resolveMode, RECORDING_MODES, type RecordingMode } from './recording/mode.js';
export {
  loadTrajectory,
  saveTrajectory,
  TrajectoryNotFoundError,
  type SaveOptions,
} from './trajectory/trajectoryFile.js';
export { fromRun, type RunRecord } from './recording/fromRun.js';
export { defineConfig, type AgentFactory, type LegateConfig } from './replay/config.js';
export type { LiveTransport } from './recording/liveTransport.js';
// The project as legate finds it (its legate.config.* and root), and every replay setting resolved from it.
export {
  ConfigError,
  configShown,
  loadProject,
  type ConfiguredProject,
  type LoadProjectOptions,
  type Project,
} from './replay/projectConfig.js';
export {
  resolveReplaySettings,
  type GivenSettings,
  type ReplaySettings,
  type ReplaySettingsInput,
} from './replay/replaySettings.js';
export type { ReplayRunner } from './replay/rerecordCommand.js';
