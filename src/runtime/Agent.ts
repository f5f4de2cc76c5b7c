import { describeValue } from '../json/describeValue.js';
import type { Message, UserBlock } from '../messages/types.js';
import type { AnyTool } from '../tools/tool.js';
import type { ToolDeclarationWarning } from '../tools/declarationError.js';
import type { AgentResult } from './agentResult.js';
import { checkAgentOptions, DEFAULT_MAX_TOKENS, DEFAULT_MAX_TURNS, type AgentOptions } from './agentOptions.js';
import { EventLog, type AgentEventListener } from './events.js';
import { compileRules, type ToolFacts } from '../guard/guardContext.js';
import { initialGuardState } from '../guard/guardState.js';
import { isAuthorized, type Authorizer } from '../guard/authorization.js';
import type { ToolStub } from './executeToolCall.js';
import type { RunConfig } from './runConfig.js';
import { runLoop } from './runLoop.js';
import { compensate, type CompensationReport } from './compensate.js';

export interface RunOptions {
  /** Cancels the run: it stops promptly and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Told of each event as it happens (turns, text deltas, tool calls). */
  onEvent?: AgentEventListener;
  /** An earlier conversation to continue; the input is appended to it. */
  history?: Message[];
  /** Keep streamed deltas in `result.events` too (they are always told to `onEvent`). */
  keepStreamEvents?: boolean;
  /** The clock tools read for this run, in place of the agent's (a replay serves recorded readings). */
  clock?: () => Date;
  /** Answers tool calls in place of the tools, where it returns a call (a replay serving recorded results). */
  toolStub?: ToolStub;
}

/** An agent: a model, a system prompt and tools, run in a loop over a transport. */
export class Agent {
  readonly name: string;
  readonly model: string;
  readonly tools: readonly AnyTool[];
  /** Non-fatal findings about the tools (e.g. a missing description), also emitted as process warnings. */
  readonly warnings: readonly ToolDeclarationWarning[];
  /** The clock tools read through `ctx.now()`. */
  readonly clock: () => Date;
  readonly #config: Omit<RunConfig, 'now' | 'stub' | 'visibleTools'>;
  readonly #tools: ReadonlyMap<string, AnyTool>;
  readonly #authorizer: Authorizer | undefined;

  constructor(options: AgentOptions) {
    const tools = checkAgentOptions(options);
    this.name = options.name;
    this.model = options.model;
    this.tools = [...tools.values()];
    this.warnings = this.tools.flatMap((tool) => tool.warnings);
    for (const warning of this.warnings) warnOnce(warning);
    const clock = options.clock;
    this.clock = clock === undefined ? () => new Date() : () => clock();
    this.#tools = tools;
    this.#authorizer = options.authorizer;
    this.#config = {
      agent: options.name,
      model: options.model,
      system: options.system,
      facts: new Map([...tools].map(([name, tool]): [string, ToolFacts] => [name, { untrusted: tool.untrusted, privileged: tool.privileged, policy: tool.policy }])),
      rules: compileRules(options.rules ?? []),
      mode: options.mode ?? 'live',
      transport: options.transport,
      maxTurns: options.maxTurns ?? DEFAULT_MAX_TURNS,
      maxTokens: options.maxTokens ?? DEFAULT_MAX_TOKENS,
      temperature: options.temperature,
      thinking: options.thinking,
    };
  }

  /**
   * The tools the model may see: those without a policy, and those whose policy the agent's
   * authorizer grants. Asked afresh for every run, so a change of principal takes effect.
   */
  visibleTools(): ReadonlyMap<string, AnyTool> {
    return new Map([...this.#tools].filter(([, tool]) => isAuthorized(tool.policy, this.#authorizer)));
  }

  /** Runs the agent on one input, to the end of the conversation or of its turns. */
  async run(input: string | UserBlock[], options: RunOptions = {}): Promise<AgentResult> {
    checkInput(input);
    const controller = new AbortController();
    const onAbort = () => controller.abort(options.signal?.reason);
    options.signal?.throwIfAborted();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const messages: Message[] = [...(options.history ?? []), { role: 'user', content: structuredClone(input) }];
      const log = new EventLog(options.onEvent, { keepStreamEvents: options.keepStreamEvents ?? false });
      const config: RunConfig = { ...this.#config, visibleTools: this.visibleTools(), now: options.clock ?? this.clock, stub: options.toolStub };
      return await runLoop(config, messages, initialGuardState(), controller.signal, log);
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      // Tools still running when the run ends (it failed or was cancelled) are told to stop.
      controller.abort(new Error('The run has ended.'));
    }
  }

  /**
   * Undoes a finished run: every successful call of a tool with `compensatedBy`, newest first,
   * through its compensator with the original input. Failed calls and planned effects are
   * skipped; a compensator that fails is reported, never thrown.
   */
  compensate(result: AgentResult, options: { signal?: AbortSignal } = {}): Promise<CompensationReport> {
    return compensate(result, this.#tools, { agent: this.name, now: this.clock, ...options });
  }
}

function checkInput(input: unknown): void {
  const ok = (typeof input === 'string' && input !== '') || (Array.isArray(input) && input.length > 0);
  if (!ok) throw new TypeError(`agent.run needs the user's input: a non-empty string or a list of content blocks, but it was ${describeValue(input)}.`);
}

const warned = new WeakSet<ToolDeclarationWarning>();

function warnOnce(warning: ToolDeclarationWarning): void {
  if (warned.has(warning)) return;
  warned.add(warning);
  process.emitWarning(warning.message, { type: 'LegateWarning', code: `LEGATE_${warning.code.toUpperCase()}` });
}
