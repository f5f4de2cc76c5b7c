import type { CompiledRules, ToolFacts } from '../guard/guardContext.js';
import type { ExecutionMode } from '../guard/shadow.js';
import type { AnyTool } from '../tools/tool.js';
import type { Transport } from '../transport/transport.js';
import type { ToolStub } from './executeToolCall.js';

/** Everything one run needs from its agent, already checked. */
export interface RunConfig {
  agent: string;
  model: string;
  system: string | undefined;
  /** The tools this run's principal may use: the model is shown these and no others. */
  visibleTools: ReadonlyMap<string, AnyTool>;
  /** The safety flags of every tool the agent has, hidden ones included. */
  facts: ReadonlyMap<string, ToolFacts>;
  rules: CompiledRules;
  mode: ExecutionMode;
  transport: Transport;
  maxTurns: number;
  maxTokens: number;
  temperature: number | undefined;
  thinking: { budgetTokens: number } | undefined;
  now: () => Date;
  stub: ToolStub | undefined;
  /** Which calls wait for a person's approval. */
  approvalRequired: ((tool: AnyTool, args: unknown) => boolean) | undefined;
  /** Transfer tools of the agent in charge, by tool name: the target's name and run configuration. */
  handoffs: ReadonlyMap<string, { name: string; config: () => RunConfig }>;
  /** Transfers allowed in one run. */
  maxHandoffs: number;
  /** Signs suspensions (HMAC-SHA256), so only a holder of the key can make one this agent resumes. */
  suspensionKey: string | Uint8Array | undefined;
}
