import type { UserBlock } from '../messages/types.js';
import type { Rule } from '../guard/rules.js';
import type { ToolDeclarationWarning } from '../tools/declarationError.js';
import type { OutputOf, OutputSchema } from '../tools/output/prepareOutput.js';
import type { ServerTool } from '../tools/serverTool.js';
import type { TaintPolicy } from '../tools/taintPolicy.js';
import type { AnyTool } from '../tools/tool.js';
import { recoverSuspension } from './approval/recoverSuspension.js';
import { resumeSuspension } from './approval/resumeSuspension.js';
import type { Suspension } from './agentResult.js';
import { visibleToolsOf, type AgentDefinition } from './agentDefinition.js';
import type { AgentNode, HandoffTarget } from './agentNode.js';
import type { AgentOptions } from './agentOptions.js';
import type { AgentResult } from './agentResult.js';
import { streamRun, type AgentStream } from './agentStream.js';
import { compensate, type CompensationReport } from './compensate.js';
import { defineAgent } from './defineAgent.js';
import { runAgent } from './runAgent.js';
import type { RecoverOptions, ResumeOptions, RunOptions } from './runOptions.js';
import { subAgentTool } from './subAgentTool.js';

/** An agent: a model, a system prompt and tools, run in a loop over a transport. */
export class Agent implements AgentNode {
  readonly name: string;
  readonly model: string;
  readonly tools: readonly AnyTool[];
  /** The agents this one can hand the conversation to. */
  readonly handoffs: readonly HandoffTarget[];
  /** Its tool contracts, as declared. */
  readonly rules: readonly Rule[];
  /** Non-fatal findings about the tools (e.g. a missing description), also emitted as process warnings. */
  readonly warnings: readonly ToolDeclarationWarning[];
  /** The clock tools read through `ctx.now()` in runs that start (or resume) on this agent. */
  readonly clock: () => Date;
  /** The tools the API runs (web search, ...), offered after the defined ones. */
  readonly serverTools: readonly ServerTool[];
  /** Its policy for privileged tools in a tainted run, as declared (`onTaint`); a tool's own wins. */
  readonly onTaint: TaintPolicy | undefined;
  /** The system prompt it was given (`system`), if any. */
  readonly system: string | undefined;
  /** What its runs read: its options, checked (defineAgent.ts). */
  readonly #definition: AgentDefinition;

  constructor(options: AgentOptions) {
    const definition = defineAgent(this, options);
    this.#definition = definition;
    this.name = options.name;
    this.model = options.model;
    this.tools = [...definition.tools.values()];
    this.serverTools = [...definition.serverTools.values()];
    this.handoffs = definition.handoffs;
    this.rules = [...(options.rules ?? [])];
    this.onTaint = options.onTaint;
    this.system = options.system;
    this.warnings = definition.warnings;
    this.clock = definition.clock;
  }

  /**
   * The tools the model may see: those without a policy, and those whose policy the agent's
   * authorizer grants. Asked afresh for every run, so a change of principal takes effect.
   */
  visibleTools(): ReadonlyMap<string, AnyTool> {
    return visibleToolsOf(this.#definition);
  }

  /** Runs the agent on one input, to the end of the conversation, of its turns, or until a call needs approval. */
  run<const S extends OutputSchema>(
    input: string | UserBlock[],
    options: RunOptions & { output: S },
  ): Promise<AgentResult & { output: OutputOf<S> | undefined }>;
  run(input: string | UserBlock[], options?: RunOptions): Promise<AgentResult>;
  async run(input: string | UserBlock[], options: RunOptions = {}): Promise<AgentResult> {
    return runAgent(this.#definition, input, options);
  }

  /**
   * Runs the agent as `run` does, read as it goes: `for await (const event of agent.stream(input))` yields each event
   * of the run as it happens (model deltas, calls and their decisions and results, handoffs), then
   * `{ type: 'result', result }`; `stream.result` is the result as a promise. Leaving the loop early cancels the run;
   * the run's error is thrown by the loop. See docs/using-legate.md, "Streaming".
   */
  stream<const S extends OutputSchema>(
    input: string | UserBlock[],
    options: RunOptions & { output: S },
  ): AgentStream<AgentResult & { output: OutputOf<S> | undefined }>;
  stream(input: string | UserBlock[], options?: RunOptions): AgentStream;
  stream(input: string | UserBlock[], options: RunOptions = {}): AgentStream {
    return streamRun(
      (streamed, progress) =>
        runAgent(this.#definition, input, streamed, {
          settled: ({ output }) => output && progress(output.partialStringAt),
        }),
      options,
    );
  }

  /**
   * Continues a suspended run with a person's decision. Refused, before anything runs, when the
   * suspension was already resumed, when a pending call is not the one that was suspended, or
   * when a decision was given for other arguments.
   */
  resume(suspension: Suspension, options: ResumeOptions): Promise<AgentResult> {
    return resumeSuspension(this.#definition, suspension, options);
  }

  /**
   * Finishes a resume whose process stopped between its claim and its end (`store.list({ status:
   * 'claimed' })` lists them): takes the claim over once it has stood still for `staleAfterMs`,
   * and continues with the decisions recorded on it. An approved call recorded as finished is
   * answered from the record, not run again; one recorded as started but not finished is run
   * again only if its tool is named in `rerun` (it is idempotent on `ctx.idempotencyKey`), and
   * otherwise answered as an outcome nobody knows (`OutcomeUnknownError`), for a person to check.
   */
  recover(suspension: Suspension, options: RecoverOptions): Promise<AgentResult> {
    return recoverSuspension(this.#definition, suspension, options);
  }

  /**
   * This agent as one tool of another: the caller's model sends a request, this agent runs on
   * it, and its answer is the tool's result. Safety composes: if this agent can read untrusted
   * content (directly, through its sub-agents or its handoff targets), the tool is untrusted, so
   * its answer taints the caller; if it can act on the world, the tool is privileged, so a
   * tainted caller cannot reach it. Its usage adds to the caller's.
   */
  asTool(name: string, description: string): AnyTool {
    return subAgentTool(this.#definition, name, description);
  }

  /**
   * Undoes a finished run: every successful call of a tool with `compensatedBy`, newest first,
   * through its compensator with the original input. Failed calls and planned effects are
   * skipped; a compensator that fails is reported, never thrown.
   */
  compensate(result: AgentResult, options: { signal?: AbortSignal } = {}): Promise<CompensationReport> {
    return compensate(result, this.#definition.tools, { agent: this.name, now: this.clock, ...options });
  }
}
