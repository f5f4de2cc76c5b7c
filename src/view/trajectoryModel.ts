import type { RecordedResult } from '../trajectory/types.js';

/**
 * What the page shows of a trajectory: derived once (viewModel.ts), rendered by the other files of this folder.
 */

/** One tool call: the model's (answered by legate) or a server tool's (run by the API). */
export interface CallModel {
  id: string;
  tool: string;
  /** The 1-based turn of its run in which the model asked for it. */
  turn: number;
  /** The agent whose turn asked for it. */
  lane: string;
  input: unknown;
  /** For a call max_tokens cut off: the JSON text of its input as far as it arrived. */
  partialInput?: string;
  /** The recorded outcome; a server tool's call is `ok` when its result came back, else `incomplete`. */
  outcome: RecordedResult['outcome'];
  /** Run by the API (a web search), not by legate. */
  server: boolean;
  /** What the model was told, in words; undefined when no result was recorded. */
  output: string | undefined;
  rule?: string;
  source?: string;
  code?: string;
  argument?: string;
  errorClass?: string;
  /** For a call argument provenance refused: the sensitive argument traced to no trusted text, and where it was. */
  untraced?: { argument: string; value: string | number; foundIn: string[] };
  /** A person's decision on the call. */
  approval?: { approve: boolean; reason?: string };
  /**
   * What the audit of the file (a file recorded at the HTTP boundary, audited by the declarations it was given) found
   * on the call: the guard would have refused it by this rule; for taint, the call whose result made it unsafe.
   */
  audit?: AuditMark;
  /** A replay serves its recorded result instead of running the tool (the file's `serve`, a redacted input). */
  served: boolean;
  /** Its result tainted the run: an untrusted tool's content entered the conversation here. */
  taints: boolean;
  /** For a call blocked by taint: the call whose result tainted the run, where the run holds it. */
  taintedBy?: CallModel;
  /** A sub-agent's run inside the call. */
  subRun?: RunModel;
}

/** The audit's finding on a call, as the page shows it. */
export interface AuditMark {
  rule: string;
  /** The call was carried out in the recording: an unsafe flow, not only a call the guard would have refused. */
  ran: boolean;
  /** For taint: the untrusted call whose result entered the conversation first. */
  source?: { id: string; tool: string; turn: number };
  untraced?: { argument: string; value: string | number; foundIn: string[] };
}

/** One part of a response, in the order the model wrote it. */
export type PartModel =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string | undefined }
  | { kind: 'call'; call: CallModel }
  | { kind: 'block'; type: string; json: string };

export interface TurnModel {
  /** 1-based, within its run. */
  number: number;
  lane: string;
  /** The conversation was handed to this turn's agent (the lane changed here). */
  handoff?: { from: string; to: string; reason?: string };
  parts: PartModel[];
  stopReason: string;
  usage: string;
}

/** A run: the file's conversation, a further conversation of the file, or a sub-agent's run. */
export interface RunModel {
  agent: string;
  model: string;
  input: string;
  turns: TurnModel[];
  /** Every agent that made a turn, in order of first appearance. */
  lanes: string[];
  stopReason: string;
  tainted: boolean;
  taintSource: string | undefined;
  usage: string;
}

/** A trajectory as the page shows it. */
export interface TrajectoryModel {
  name: string;
  description: string | undefined;
  agent: string;
  model: string;
  recordedAt: string;
  runs: RunModel[];
  /** Counts over every run of the file (sub-agents' included). */
  toolCalls: number;
  blocked: number;
  tainted: boolean;
  taintSource: string | undefined;
  stopReason: string;
  usage: string;
}
