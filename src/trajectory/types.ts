import type { MatchLevel } from './matchLevel.js';
import type { ApiStopReason, ServerBlock, ToolResultContent, UserBlock } from '../messages/types.js';

/** The trajectory format version this legate writes, and the newest major version it reads. */
export const TRAJECTORY_VERSION = 1;

/**
 * One recorded run, as stored in a YAML file. The field order here is the order in the file.
 * See docs/trajectory-format.md.
 */
export interface Trajectory {
  version: number;
  name: string;
  description?: string;
  /** When the run was recorded (ISO 8601). */
  recordedAt: string;
  /** The legate version that recorded it. */
  legate: string;
  /** The @anthropic-ai/sdk version installed when it was recorded. */
  sdk?: string;
  /** The agent that ran, by the name the config exports its factory under. */
  agent: string;
  /** The model id the API answered with (the first response's). */
  model: string;
  /** The request parameters the agent sent on every turn. */
  request: RecordedRequest;
  /** The tools offered to the model. */
  tools: RecordedTool[];
  /** Other agents that made turns after a handoff, each with what its requests carried. */
  agents?: Record<string, { request: RecordedRequest; tools: RecordedTool[] }>;
  /** The user's input. */
  input: string | UserBlock[];
  /** Every reading of the run's clock (`ctx.now()`), in order, served again at replay. */
  clock?: string[];
  /** The match level a replay uses unless told otherwise (a fuzz finding uses `structure`). */
  match?: MatchLevel;
  /** Tools whose recorded results a replay serves instead of running them (a fuzz finding's planted outputs). */
  serve?: string[];
  /** What a replay must also see: calls that must be blocked (a fuzz finding's regression). */
  expect?: { blocked: { id: string; tool: string; rule?: string }[] };
  turns: RecordedTurn[];
  summary: RecordedSummary;
}

export interface RecordedRequest {
  model: string;
  maxTokens: number;
  system?: string;
  temperature?: number;
  thinking?: { budgetTokens: number };
}

export interface RecordedTool {
  name: string;
  untrusted?: boolean;
  privileged?: boolean;
  policy?: string;
  /** Digest of the tool as the model was shown it (name, description, input schema). */
  digest: string;
}

export interface RecordedTurn {
  /** The agent that made this turn: present on every turn of a run with more than one agent (a handoff). */
  agent?: string;
  response: RecordedResponse;
  /** Decisions a person made on this response's calls, when the run stopped for approval. */
  approvals?: RecordedApproval[];
  /** The answers to this response's tool calls, in block order. */
  results?: RecordedResult[];
}

/** A sub-agent's run inside a tool call: a trajectory of its own, without the file's metadata. */
export type RecordedSubRun = Pick<Trajectory, 'agent' | 'model' | 'request' | 'tools' | 'agents' | 'input' | 'turns' | 'summary'>;

export interface RecordedApproval {
  id: string;
  approve: boolean;
  reason?: string;
}

export interface RecordedResponse {
  id: string;
  model: string;
  stopReason: ApiStopReason | null;
  stopSequence?: string;
  usage: RecordedUsage;
  content: RecordedBlock[];
}

/** A content block, keyed by its kind so the file reads like the conversation. */
export type RecordedBlock =
  | { text: string; citations?: unknown[] }
  | { thinking: string; signature: string }
  | { redactedThinking: string }
  | { toolUse: { id: string; name: string; input: unknown } }
  | { server: ServerBlock };

/** What happened to a tool call. `blocked`, `planned` and `suspended` come from the safety layer. */
export type RecordedOutcome = 'ok' | 'error' | 'invalid' | 'blocked' | 'planned' | 'suspended';

export interface RecordedResult {
  /** The tool_use id it answers. */
  id: string;
  tool: string;
  outcome: RecordedOutcome;
  /** For a refusal: the binder's code (`invalid_type`, ...) or `unknown_tool`. */
  code?: string;
  argument?: string;
  path?: (string | number)[];
  /** For a tool failure: the error's class. */
  errorClass?: string;
  /** For `blocked`: the guard rule that refused the call (`terminal`, `authorization`, `taint`, `prerequisite`, `limit`); for `planned`: `shadow`. */
  rule?: string;
  /** For a call blocked by taint: the untrusted tool whose content entered the conversation. */
  source?: string;
  /** Characters the tool produced, where maxResultLength withheld some. */
  withheld?: { length: number; shown: number };
  /** For a sub-agent's call: its own conversation, recorded where it happened. */
  subRun?: RecordedSubRun;
  /** What the model was told. */
  content: string | ToolResultContent[];
}

export interface RecordedUsage {
  input: number;
  output: number;
  cacheCreation?: number;
  cacheRead?: number;
}

export interface RecordedSummary {
  stopReason: string;
  turns: number;
  /** Every transfer of the conversation, in order. */
  handoffs?: { from: string; to: string; reason?: string; turn: number }[];
  /** Present (true) when an untrusted tool's content entered the conversation. */
  tainted?: boolean;
  taintSource?: string;
  usage: RecordedUsage;
}
