import type * as z from 'zod';
import type { recordedBlock } from './format/blocks.js';
import type { recordedRequest, recordedTool } from './format/header.js';
import type {
  RECORDED_OUTCOMES,
  recordedApproval,
  recordedConversation,
  recordedResponse,
  recordedResult,
  recordedSample,
  recordedSubRun,
  recordedSummary,
  recordedTurn,
} from './format/run.js';
import type { recordedTotals, recordedUsage } from './format/usage.js';
import type { trajectoryFormat } from './format/trajectory.js';

/**
 * The types of a trajectory, derived from its one declaration in `./format/` (see
 * docs/trajectory-format.md). The field order there is the order in the file.
 */

/** The trajectory format version this legate writes, and the newest major version it reads. */
export const TRAJECTORY_VERSION = 1;

/** One recorded run, as stored in a YAML file. */
export type Trajectory = z.output<typeof trajectoryFormat>;
export type RecordedRequest = z.output<typeof recordedRequest>;
export type RecordedTool = z.output<typeof recordedTool>;
export type RecordedTurn = z.output<typeof recordedTurn>;
/** A sub-agent's run inside a tool call: a trajectory of its own, without the file's metadata. */
export type RecordedSubRun = z.output<typeof recordedSubRun>;
/** A further conversation of a file recorded at the HTTP boundary. */
export type RecordedConversation = z.output<typeof recordedConversation>;
/** A further sample of the run: what differs from one run of the same input to the next. */
export type RecordedSample = z.output<typeof recordedSample>;
export type RecordedApproval = z.output<typeof recordedApproval>;
export type RecordedResponse = z.output<typeof recordedResponse>;
/** A content block, keyed by its kind so the file reads like the conversation. */
export type RecordedBlock = z.output<typeof recordedBlock>;
/** What happened to a tool call. `blocked`, `planned` and `suspended` come from the safety layer. */
export type RecordedOutcome = (typeof RECORDED_OUTCOMES)[number];
export type RecordedResult = z.output<typeof recordedResult>;
/** A response's usage as a file holds it: the API's report, or (older files) four counters. */
export type RecordedUsage = z.output<typeof recordedUsage>;
/** The run's usage totals, as the summary holds them. */
export type RecordedTotals = z.output<typeof recordedTotals>;
export type RecordedSummary = z.output<typeof recordedSummary>;
