import type { CompiledRules, ToolFacts } from '../guard/guardContext.js';
import type { ExecutionMode } from '../guard/shadow.js';
import type { PreparedOutput } from '../tools/output/prepareOutput.js';
import type { AnyTool } from '../tools/tool.js';
import type { TaintPolicy } from '../tools/taintPolicy.js';
import type { ServerTool } from '../tools/serverTool.js';
import type { RequestOptions } from './requestOptions.js';
import type { Transport } from '../transport/transport.js';
import type { ReplayReferee } from './replayReferee.js';
import type { ToolStub } from './executeToolCall.js';
import type { RunTrace } from '../telemetry/runTrace.js';

/**
 * What belongs to the run: set by the agent the run (or resume) is called on and the options of
 * that call, and kept, as one value, across every handoff. Nothing else can change it mid-run.
 */
export interface RunSettings {
  transport: Transport;
  /** While the run replays a recording: the recording's say over its decisions, tool results and tools' posture. */
  replay: ReplayReferee | undefined;
  /** The clock tools read through `ctx.now()`; sub-agents read it too. */
  now: () => Date;
  stub: ToolStub | undefined;
  /** Transfers allowed in one run. */
  maxHandoffs: number;
  /** `shadow` makes the whole run a dry run: no agent in charge runs a privileged tool. */
  mode: ExecutionMode;
  /** Signs what an agent without its own key suspends. */
  suspensionKey: string | Uint8Array | undefined;
  /** The structured answer asked for (`output`): every request carries its format; the final answer is checked. */
  output: PreparedOutput | undefined;
  /** The invocation's spans (a no-op unless an OpenTelemetry SDK is registered). */
  trace: RunTrace;
}

/** What belongs to the agent in charge: swapped, whole, at a handoff. */
export interface AgentSettings {
  name: string;
  model: string;
  system: string | undefined;
  /** The tools this run's principal may use: the model is shown these and no others. */
  visibleTools: ReadonlyMap<string, AnyTool>;
  /** The safety flags of every tool the agent has, hidden ones included. */
  facts: ReadonlyMap<string, ToolFacts>;
  rules: CompiledRules;
  /** Model calls this agent may make while in charge. */
  maxTurns: number;
  maxTokens: number;
  temperature: number | undefined;
  /** The server tools the model is offered, by name, after the defined ones. */
  serverTools: ReadonlyMap<string, ServerTool>;
  /** Tool choice, stop sequences, thinking, caching, metadata, container. */
  request: RequestOptions;
  /** Which calls wait for a person's approval. */
  approvalRequired: ((tool: AnyTool, args: unknown) => boolean) | undefined;
  /** Transfer tools, by tool name: the target's name and its settings (never a run's). */
  handoffs: ReadonlyMap<string, { name: string; settings: () => AgentSettings }>;
  /** `shadow` keeps this agent's privileged tools planned, whatever run reaches it. */
  mode: ExecutionMode;
  /** Signs what this agent suspends; without one, the run's key does. */
  suspensionKey: string | Uint8Array | undefined;
  /** Its policy for privileged tools in a tainted run, as declared (resolved per tool into `facts`). */
  onTaint: TaintPolicy | undefined;
}

/** Everything one run needs, already checked: the run's half and the half of the agent in charge. */
export interface RunConfig {
  readonly run: RunSettings;
  readonly agent: AgentSettings;
}

/** The configuration after a transfer: the same run, the target in charge. */
export function handedTo(config: RunConfig, target: AgentSettings): RunConfig {
  return { run: config.run, agent: target };
}

/** Shadow if the run or the agent in charge says so: a setting that can only make a run stricter. */
export function executionMode(config: RunConfig): ExecutionMode {
  return config.run.mode === 'shadow' || config.agent.mode === 'shadow' ? 'shadow' : 'live';
}

/** The key suspensions are signed (and checked) with: the agent in charge's, else the run's. */
export function signingKey(run: RunSettings, agent: AgentSettings): string | Uint8Array | undefined {
  return agent.suspensionKey ?? run.suspensionKey;
}
