import type { Transport } from '../transport/transport.js';
import type { MatchLevel } from '../trajectory/matchRequest.js';
import type { Redaction } from '../trajectory/redaction.js';
import type { AgentFactory } from './runTrajectory.js';

/** What `legate.config.ts` exports (as its default export) for the `legate` command. */
export interface LegateConfig {
  /** Agent factories, by the agent name trajectories record. */
  agents: Record<string, AgentFactory>;
  /** The folder `legate replay` reads when given no paths. Default `trajectories`. */
  trajectories?: string;
  /** How closely a replay must match. Default `exact`. */
  match?: MatchLevel;
  redactions?: Redaction[];
  /** Patterns beyond the built-in ones that must never be saved. */
  secrets?: (RegExp | string)[];
  /** The live transport used to (re-)record. Default: `new AnthropicTransport()`. */
  transport?: () => Transport;
  /** The command that re-records a file, quoted in divergence messages. */
  rerecord?: (file: string) => string;
}

/** Types a config module's default export. */
export function defineConfig(config: LegateConfig): LegateConfig {
  return config;
}
