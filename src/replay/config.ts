import type { AuditDeclarations } from '../guard/auditDeclarations.js';
import type { LiveTransport } from '../recording/liveTransport.js';
import type { MatchLevel } from '../trajectory/matchLevel.js';
import type { Redaction } from '../trajectory/redaction.js';
import type { RunTools } from './runToolsPolicy.js';
import type { SampleRule } from './sampleRule.js';
import type { Agent } from '../runtime/Agent.js';
import type { Transport } from '../transport/transport.js';

/** Builds the agent under test around a transport: the live model, or a replay. */
export type AgentFactory = (transport: Transport) => Agent;

/** What `legate.config.ts` exports (as its default export) for the `legate` command. */
export interface LegateConfig {
  /**
   * Agent factories, by the agent name trajectories record: what `legate replay` runs. A project that
   * only records other code at the HTTP boundary (legate/intercept) needs none.
   */
  agents?: Record<string, AgentFactory>;
  /**
   * The folder of trajectories, relative to this file: what `legate replay` and `legate validate`
   * read when given no paths. Default `trajectories`.
   */
  trajectories?: string;
  /**
   * How closely every replay in the project must match, `runTrajectory`'s and `legate replay`'s:
   * over a file's own `match:`, under `--match` and a `match` option in code. Default: the
   * file's, else `exact`. See docs/trajectory-format.md, "Replay settings".
   */
  match?: MatchLevel;
  /**
   * Which tools every replay in the project runs for real; the others are served from the
   * recording. Default `safe`: privileged tools, tools with a `compensatedBy`, and tools whose
   * annotations say they are not read-only, are served, so a replay in CI never repeats a side
   * effect; the rest run, so a regression in a tool's own code still shows. Under `--run-tools`
   * and a `runTools` option in code. See docs/trajectory-format.md, "What runs in a replay".
   */
  runTools?: RunTools;
  /**
   * How many samples every recording in the project makes (each a live run of the same input, kept in the one
   * file). Under `--samples` and a `samples` option in code. Default 1. See docs/evaluation.md.
   */
  samples?: number;
  /**
   * When a file of several samples passes, in every replay of the project: `'all'` (the default), `{ atLeast: m }`
   * or `{ rate: r }`. Under `--pass` and a `pass` option in code.
   */
  pass?: SampleRule;
  /** Applied to every recording in the project, and the same way to each request at replay, before the code's own. */
  redactions?: Redaction[];
  /** Patterns beyond the built-in ones that must never be saved, in every recording, before the code's own. */
  secrets?: (RegExp | string)[];
  /**
   * The live transport used to (re-)record: a transport, used by every recording, or a function
   * that returns one, called for each. Default: `new AnthropicTransport()`.
   */
  transport?: LiveTransport;
  /**
   * The command that re-records a file (as the user types its path), quoted in divergence
   * messages; `undefined` for a file it does not know, which gets the command legate builds.
   */
  rerecord?: (file: string) => string | undefined;
  /**
   * What `legate audit` checks every trajectory against: the tools to treat as untrusted and as
   * privileged (by name, or by MCP-style hints), the prerequisites and limits, and argument
   * provenance (`sensitive`, `outsideAuthored`), the shape `auditTrajectory` takes. Its flags add
   * to these. See docs/cli.md, "legate audit".
   */
  audit?: AuditDeclarations;
}

/** Types a config module's default export. */
export function defineConfig(config: LegateConfig): LegateConfig {
  return config;
}
