import { randomUUID } from 'node:crypto';
import { copyValue } from '../json/copyValue.js';
import { describeValue } from '../json/describeValue.js';
import type { Message, UserBlock } from '../messages/types.js';
import { isAuthorized } from '../guard/authorizer.js';
import { compileRules, toolFacts, type ToolFacts } from '../guard/guardContext.js';
import { copyGuardState, guardStateProblem, type GuardState } from '../guard/guardState.js';
import { guardStateOfHistory, historyShapeProblem, mergeGuardStates } from '../guard/historyGuardState.js';
import type { Rule } from '../guard/rules.js';
import { defineTool } from '../tools/defineTool.js';
import type { AnyTool } from '../tools/tool.js';
import type { TaintPolicy } from '../tools/taintPolicy.js';
import { serverToolUntrusted, type ServerTool } from '../tools/serverTool.js';
import type { RequestOptions } from './requestOptions.js';
import type { ToolDeclarationWarning } from '../tools/declarationError.js';
import { agentsReachableFrom, historyToolsOf, registerSubAgent, toolsReachableFrom } from './agentGraph.js';
import type { AgentResult } from './agentResult.js';
import { streamRun, type AgentStream } from './agentStream.js';
import {
  checkAgentOptions,
  DEFAULT_MAX_TOKENS,
  DEFAULT_MAX_TURNS,
  type AgentOptions,
  type HandoffTarget,
} from './agentOptions.js';
import { compensate, type CompensationReport } from './compensate.js';
import { EventLog, type AgentEventListener } from './events.js';
import type { ToolStub } from './executeToolCall.js';
import { DEFAULT_MAX_HANDOFFS } from './handoff.js';
import { checkResume, checkSuspension } from './approval/checkSuspension.js';
import { resumeRun } from './approval/resumeRun.js';
import { SuspensionError } from './approval/suspensionError.js';
import type { ApprovalDecision } from './approval/approvalDecision.js';
import { defaultOwner, DEFAULT_STALE_AFTER_MS, takeClaim, takeOver, unrecorded } from './approval/claimLedger.js';
import type { ClaimStore } from './approval/claimRecord.js';
import { signingKey, type AgentSettings, type RunConfig, type RunSettings } from './runConfig.js';
import { runLoop } from './runLoop.js';
import { initialRunState } from './runState.js';
import type { Suspension } from './approval/suspension.js';
import type { Transport } from '../transport/transport.js';
import { refereeOf, type ReplayReferee } from './replayReferee.js';
import { prepareOutput, type OutputOf, type OutputSchema } from '../tools/output/prepareOutput.js';
import { withOutput } from './structuredOutput.js';
import { LegateError } from '../errors/LegateError.js';
import { UsageError } from '../errors/UsageError.js';
import type { Context } from '@opentelemetry/api';
import { RunTrace } from '../telemetry/runTrace.js';
import { spanContextOfTool } from '../telemetry/toolSpan.js';
import { recordsContent, telemetryOptionProblem, type TelemetryOptions } from '../telemetry/telemetryOptions.js';
import type { InvocationStart } from '../telemetry/invocationSpan.js';

export interface RunOptions {
  /** Cancels the run: it stops promptly and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Told of each event as it happens (turns, text deltas, tool calls). */
  onEvent?: AgentEventListener;
  /**
   * An earlier conversation to continue; the input is appended to it. The run starts from the
   * guard state the conversation carries (taint, successes, attempts, a terminal tool's end),
   * recomputed from its tool calls; a tool result no reachable tool can be named for taints.
   */
  history?: Message[];
  /**
   * The guard state of the run that wrote `history` (its `result.guard`). It can only make the
   * run stricter: keep the taint of a history trimmed of its tool calls, never unlock a
   * prerequisite the history does not show.
   */
  guard?: GuardState;
  /** Keep streamed deltas in `result.events` too (they are always told to `onEvent`). */
  keepStreamEvents?: boolean;
  /** The clock tools read for this run, in place of the agent's (a replay serves recorded readings). */
  clock?: () => Date;
  /**
   * Answers tool calls in place of the tools, where it returns a call (a fuzzer planting outputs).
   * A replay serves recorded results through its referee instead (`replay`).
   */
  toolStub?: ToolStub;
  /** The transport for this run, in place of the agent's (a sub-agent inside a recorded or replayed call). */
  transport?: Transport;
  /**
   * While the run replays a recording: the recording's say over the run (`replayTransport.referee`; `runTrajectory`
   * passes it). It compares each call's decision with the recorded one before anything runs and serves the recorded
   * results of tools with side effects. Default: the referee the run's transport comes with, if it replays one.
   */
  replay?: ReplayReferee;
  /**
   * Asks for a structured answer: every request carries this schema (made strict) as the API's
   * `output_config.format`, and the final answer is checked against the whole schema and set as
   * `result.output`, typed from it. A zod object schema or a JSON Schema object; see
   * docs/structured-outputs.md.
   */
  output?: OutputSchema;
  /** This run's OpenTelemetry spans, in place of the agent's `telemetry`: `{ recordContent }`. */
  telemetry?: TelemetryOptions;
}

/** The options of a call that set the run's settings in place of the agent's. */
type RunSettingsOptions = Pick<RunOptions, 'clock' | 'toolStub' | 'transport' | 'output' | 'replay'>;

/** The options every way of running takes alike. */
type CommonOptions =
  | 'signal'
  | 'onEvent'
  | 'keepStreamEvents'
  | 'clock'
  | 'toolStub'
  | 'output'
  | 'telemetry'
  | 'replay';

export interface ResumeOptions extends Pick<RunOptions, CommonOptions> {
  /**
   * `true` or `false` for every pending call, or one decision per call, bound to its input digest. Nothing else is a
   * decision.
   */
  approve: boolean | ApprovalDecision[];
  /** Told to the model for denied calls. */
  reason?: string;
  /**
   * Where the suspension is kept. It is claimed there before anything runs, for good, so a
   * suspension is resumed once, even across processes; each approved call's progress is recorded
   * on the claim, so a resume whose process died can be recovered (`agent.recover`). Without a
   * store, this process remembers, and there is nothing to recover from.
   */
  store?: ClaimStore;
  /** Who holds the claim, as the store shows it. Default: host, process id and a random part. */
  owner?: string;
}

export interface RecoverOptions extends Pick<RunOptions, CommonOptions> {
  /** The store the suspension was claimed in. */
  store: ClaimStore;
  /**
   * A claim whose record has not changed for this long counts as abandoned. Default 15 minutes; 0 when you know its
   * process stopped.
   */
  staleAfterMs?: number;
  /**
   * Tools whose calls, started and not finished, may run again: they make their effect idempotent on
   * `ctx.idempotencyKey`.
   */
  rerun?: readonly string[];
  owner?: string;
}

/** Suspensions resumed by this process, for resumes made without a store. */
const resumedHere = new Set<string>();

/** An agent: a model, a system prompt and tools, run in a loop over a transport. */
export class Agent {
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
  readonly #options: AgentOptions;
  readonly #tools: ReadonlyMap<string, AnyTool>;
  readonly #serverTools: ReadonlyMap<string, ServerTool>;
  readonly #request: RequestOptions;

  constructor(options: AgentOptions) {
    const { tools, serverTools, handoffTools, request } = checkAgentOptions(options);
    this.name = options.name;
    this.model = options.model;
    this.#options = options;
    this.#tools = tools;
    this.#serverTools = serverTools;
    this.serverTools = [...serverTools.values()];
    this.#request = request;
    this.tools = [...tools.values()];
    this.handoffs = handoffTools.map((h) => h.target);
    this.rules = [...(options.rules ?? [])];
    this.onTaint = options.onTaint;
    this.system = options.system;
    this.warnings = this.tools.flatMap((tool) => tool.warnings);
    for (const warning of this.warnings) warnOnce(warning);
    const clock = options.clock;
    this.clock = clock === undefined ? () => new Date() : () => clock();
  }

  /**
   * The tools the model may see: those without a policy, and those whose policy the agent's
   * authorizer grants. Asked afresh for every run, so a change of principal takes effect.
   */
  visibleTools(): ReadonlyMap<string, AnyTool> {
    return new Map([...this.#tools].filter(([, tool]) => isAuthorized(tool.policy, this.#options.authorizer)));
  }

  /** Runs the agent on one input, to the end of the conversation, of its turns, or until a call needs approval. */
  run<const S extends OutputSchema>(
    input: string | UserBlock[],
    options: RunOptions & { output: S },
  ): Promise<AgentResult & { output: OutputOf<S> | undefined }>;
  run(input: string | UserBlock[], options?: RunOptions): Promise<AgentResult>;
  async run(input: string | UserBlock[], options: RunOptions = {}): Promise<AgentResult> {
    return this.#run(input, options);
  }

  /**
   * A run; `settled` is told the run's settings once they are read (a stream follows the output's progress);
   * `parent` is the span context of the tool call a sub-agent runs in.
   */
  async #run(
    input: string | UserBlock[],
    options: RunOptions,
    settled?: (settings: RunSettings) => void,
    parent?: Context,
  ): Promise<AgentResult> {
    checkInput(input);
    checkTelemetry('telemetry', options.telemetry);
    const history = options.history ?? [];
    const shape = historyShapeProblem(history);
    if (shape !== undefined)
      throw new UsageError('invalid_history', `agent.run's 'history' must be a list of messages: ${shape}.`);
    const given = options.guard === undefined ? undefined : checkedGuardState(options.guard);
    return this.#withSignal(options, async (signal, log) => {
      const messages: Message[] = [...history, { role: 'user', content: copyValue(input) }];
      const fromHistory = guardStateOfHistory(messages, historyToolsOf(this), (name) =>
        serverToolUntrusted(this.#serverTools, name),
      );
      const guard = given === undefined ? fromHistory : mergeGuardStates(fromHistory, given);
      const runId = randomUUID();
      const config = this.#traced(
        { run: this.#runSettings(options), agent: this.#agentSettings() },
        { agent: this.name, model: this.model, runId },
        options.telemetry,
        parent,
      );
      settled?.(config.run);
      return config.run.trace.around(async () => {
        log.emit({ type: 'run_started', agent: this.name });
        const result = await runLoop(config, initialRunState(messages, guard), runId, signal, log);
        return withOutput(result, config.run.output);
      });
    });
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
      (streamed, progress) => this.#run(input, streamed, ({ output }) => output && progress(output.partialStringAt)),
      options,
    );
  }

  /**
   * Continues a suspended run with a person's decision. Refused, before anything runs, when the
   * suspension was already resumed, when a pending call is not the one that was suspended, or
   * when a decision was given for other arguments.
   */
  async resume(suspension: Suspension, options: ResumeOptions): Promise<AgentResult> {
    checkTelemetry('telemetry', options.telemetry);
    const config = this.#continuing(suspension, options);
    const decisions = checkResume(
      suspension,
      config.agent.name,
      options.approve,
      options.reason,
      signingKey(config.run, config.agent),
    );
    const ledger =
      options.store === undefined
        ? claimHere(suspension.id)
          ? unrecorded
          : undefined
        : await takeClaim(options.store, suspension, decisions, options.owner ?? defaultOwner());
    if (ledger === undefined)
      throw new SuspensionError(
        'already_resumed',
        `Suspension ${suspension.id} of run ${suspension.runId} was already resumed; a decision applies once.`,
      );
    return this.#continueTraced(config, suspension, decisions, options, { ledger });
  }

  /**
   * Finishes a resume whose process stopped between its claim and its end (`store.list({ status:
   * 'claimed' })` lists them): takes the claim over once it has stood still for `staleAfterMs`,
   * and continues with the decisions recorded on it. An approved call recorded as finished is
   * answered from the record, not run again; one recorded as started but not finished is run
   * again only if its tool is named in `rerun` (it is idempotent on `ctx.idempotencyKey`), and
   * otherwise answered as an outcome nobody knows (`OutcomeUnknownError`), for a person to check.
   */
  async recover(suspension: Suspension, options: RecoverOptions): Promise<AgentResult> {
    checkTelemetry('telemetry', options.telemetry);
    const config = this.#continuing(suspension, options);
    checkSuspension(suspension, config.agent.name, signingKey(config.run, config.agent));
    const rerun = new Set(options.rerun ?? []);
    const { ledger, decisions } = await takeOver(
      options.store,
      suspension,
      options.owner ?? defaultOwner(),
      options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS,
    );
    return this.#continueTraced(config, suspension, decisions, options, { ledger, rerun: (tool) => rerun.has(tool) });
  }

  /** A configuration whose run is traced as one invocation (`invoke_agent`) of this agent. */
  #traced(
    config: RunConfig,
    start: InvocationStart,
    telemetry: TelemetryOptions | undefined,
    parent?: Context,
  ): RunConfig {
    const content = recordsContent(telemetry, this.#options.telemetry);
    return { run: { ...config.run, trace: RunTrace.start(start, { content, parent }) }, agent: config.agent };
  }

  /** A resume or a recovery: the suspended run carried on, traced as one invocation of the agent in charge. */
  #continueTraced(
    config: RunConfig,
    suspension: Suspension,
    decisions: Parameters<typeof resumeRun>[2],
    options: ResumeOptions | RecoverOptions,
    going: Parameters<typeof resumeRun>[5],
  ): Promise<AgentResult> {
    return this.#withSignal(options, async (signal, log) => {
      const traced = this.#tracedResume(config, suspension, decisions, options.telemetry);
      return traced.run.trace.around(async () =>
        withOutput(await resumeRun(traced, suspension, decisions, signal, log, going), config.run.output),
      );
    });
  }

  /** A resume's invocation: the agent in charge, the suspended run's id, the people's decisions. */
  #tracedResume(
    config: RunConfig,
    suspension: Suspension,
    decisions: ReadonlyMap<string, { approve: boolean }>,
    telemetry: TelemetryOptions | undefined,
  ): RunConfig {
    const ids = (approve: boolean) =>
      suspension.pending.filter((p) => decisions.get(p.id)?.approve === approve).map((p) => p.id);
    const start = {
      agent: config.agent.name,
      model: config.agent.model,
      runId: suspension.runId,
      resumed: { approved: ids(true), denied: ids(false) },
      usageBefore: suspension.state.usage,
    };
    return this.#traced(config, start, telemetry);
  }

  /**
   * What a suspended run continues with: the run's settings from this agent (where it began) and
   * the call's options, as `run` would take them; the agent half of the agent in charge (it may
   * have stopped after a handoff), which signs and checks with its key, else this agent's.
   */
  #continuing(suspension: Suspension, options: RunSettingsOptions): RunConfig {
    const inCharge = agentsReachableFrom(this, 'handoffs').find((other) => other.name === suspension.agent) ?? this;
    return { run: this.#runSettings(options), agent: inCharge.#agentSettings() };
  }

  /**
   * This agent as one tool of another: the caller's model sends a request, this agent runs on
   * it, and its answer is the tool's result. Safety composes: if this agent can read untrusted
   * content (directly, through its sub-agents or its handoff targets), the tool is untrusted, so
   * its answer taints the caller; if it can act on the world, the tool is privileged, so a
   * tainted caller cannot reach it. Its usage adds to the caller's.
   */
  asTool(name: string, description: string): AnyTool {
    const tool = defineTool({
      name,
      description,
      input: {
        type: 'object',
        properties: { request: { type: 'string', minLength: 1, description: `What to ask ${this.name}.` } },
        required: ['request'],
      },
      untrusted:
        toolsReachableFrom(this).some((tool) => tool.untrusted) ||
        agentsReachableFrom(this).some((agent) => agent.serverTools.some((tool) => tool.untrusted)),
      privileged: toolsReachableFrom(this).some((tool) => tool.privileged),
      run: async ({ request }, ctx) => {
        // A sub-agent's run reads its caller's clock and signal; inside a recorded or replayed call,
        // its model calls go where the caller's run keeps them. The rest of its run is its own.
        const transport = ctx.subTransport?.() as Transport | undefined;
        const replay = ctx.subReplay?.() as ReplayReferee | undefined;
        const result = await this.#run(
          request,
          {
            signal: ctx.signal,
            clock: () => ctx.now(),
            ...(transport === undefined ? {} : { transport }),
            ...(replay === undefined ? {} : { replay }),
          },
          undefined,
          spanContextOfTool(ctx),
        );
        ctx.reportUsage?.(result.usage);
        ctx.reportSubRun?.(result);
        if (result.stopReason === 'suspended') throw new SubAgentSuspendedError(this.name);
        return result.text;
      },
    });
    registerSubAgent(tool, this);
    return tool;
  }

  /**
   * Undoes a finished run: every successful call of a tool with `compensatedBy`, newest first,
   * through its compensator with the original input. Failed calls and planned effects are
   * skipped; a compensator that fails is reported, never thrown.
   */
  compensate(result: AgentResult, options: { signal?: AbortSignal } = {}): Promise<CompensationReport> {
    return compensate(result, this.#tools, { agent: this.name, now: this.clock, ...options });
  }

  /** The settings of a run that starts (or resumes) on this agent: the call's options, else this agent's. */
  #runSettings(options: RunSettingsOptions): RunSettings {
    const o = this.#options;
    const transport = options.transport ?? o.transport;
    return {
      transport,
      replay: refereeOf(transport, options.replay),
      now: options.clock ?? this.clock,
      stub: options.toolStub,
      maxHandoffs: o.maxHandoffs ?? DEFAULT_MAX_HANDOFFS,
      mode: o.mode ?? 'live',
      suspensionKey: o.suspensionKey,
      output: options.output === undefined ? undefined : prepareOutput(options.output),
      trace: RunTrace.none,
    };
  }

  /** This agent's part of a run while it is in charge: its prompt, tools, rules and limits. */
  #agentSettings(): AgentSettings {
    const o = this.#options;
    const approvalRequired = o.approvalRequired;
    return {
      name: this.name,
      model: o.model,
      system: o.system,
      visibleTools: this.visibleTools(),
      facts: new Map([...this.#tools].map(([name, tool]): [string, ToolFacts] => [name, toolFacts(tool, o.onTaint)])),
      rules: compileRules(o.rules ?? []),
      maxTurns: o.maxTurns ?? DEFAULT_MAX_TURNS,
      maxTokens: o.maxTokens ?? DEFAULT_MAX_TOKENS,
      temperature: o.temperature,
      serverTools: this.#serverTools,
      request: this.#request,
      approvalRequired:
        approvalRequired === undefined ? undefined : (tool, args) => approvalRequired(tool, args) === true,
      handoffs: new Map(
        this.handoffs.map((target) => [
          target.toolName,
          { name: target.agent.name, settings: () => target.agent.#agentSettings() },
        ]),
      ),
      mode: o.mode ?? 'live',
      suspensionKey: o.suspensionKey,
      onTaint: o.onTaint,
    };
  }

  async #withSignal(
    options: { signal?: AbortSignal; onEvent?: AgentEventListener; keepStreamEvents?: boolean },
    work: (signal: AbortSignal, log: EventLog) => Promise<AgentResult>,
  ): Promise<AgentResult> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(options.signal?.reason);
    options.signal?.throwIfAborted();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await work(
        controller.signal,
        new EventLog(options.onEvent, { keepStreamEvents: options.keepStreamEvents ?? false }),
      );
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      // Tools still running when the run ends (it failed or was cancelled) are told to stop.
      controller.abort(new Error('The run has ended.'));
    }
  }
}

/** A sub-agent stopped for approval inside a tool call: its caller cannot wait for it. */
export class SubAgentSuspendedError extends LegateError {
  readonly code = 'sub_agent_suspended';
  constructor(readonly agent: string) {
    super(
      `Sub-agent '${agent}' stopped to wait for approval; a sub-agent's calls cannot be approved from inside ` +
        `its caller's tool call.`,
    );
  }
}

function checkTelemetry(option: string, value: unknown): void {
  const problem = telemetryOptionProblem(option, value);
  if (problem !== undefined) throw new UsageError('invalid_telemetry_option', problem);
}

function checkedGuardState(given: unknown): GuardState {
  const problem = guardStateProblem(given);
  if (problem !== undefined)
    throw new UsageError(
      'invalid_guard_state',
      `agent.run's 'guard' must be a guard state as a run returns it (result.guard): ${problem}.`,
    );
  return copyGuardState(given as GuardState);
}

function claimHere(suspensionId: string): boolean {
  if (resumedHere.has(suspensionId)) return false;
  resumedHere.add(suspensionId);
  return true;
}

function checkInput(input: unknown): void {
  const ok = (typeof input === 'string' && input !== '') || (Array.isArray(input) && input.length > 0);
  if (!ok)
    throw new UsageError(
      'invalid_run_input',
      `agent.run needs the user's input: a non-empty string or a list of content blocks, but it was ` +
        `${describeValue(input)}.`,
    );
}

const warned = new WeakSet<ToolDeclarationWarning>();

function warnOnce(warning: ToolDeclarationWarning): void {
  if (warned.has(warning)) return;
  warned.add(warning);
  process.emitWarning(warning.message, { type: 'LegateWarning', code: `LEGATE_${warning.code.toUpperCase()}` });
}
