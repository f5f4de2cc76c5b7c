import type { UsageCounter } from '../messages/usageCounters.js';
import type { MessagesRequest, ModelResponse, ToolDefinition } from '../messages/types.js';
import type { McpToolAnnotations, ResolvedAnnotations } from './annotations.js';
import type { BindOptions, BindResult } from './binder/createBinder.js';
import type { ToolDeclarationWarning } from './declarationError.js';
import type { ToolOutput } from './result/renderOutput.js';
import type { PublishedSchema } from './schema/publishedSchema.js';
import type { TaintPolicy } from './taintPolicy.js';

/** What a tool's `run` receives besides its arguments. */
export interface ToolContext {
  /** The id of the tool_use block being answered. */
  toolUseId: string;
  /** The name of the agent running the tool. */
  agent: string;
  /** Aborted when the run is cancelled: stop promptly. */
  signal: AbortSignal;
  /** The run's clock. Use it instead of `new Date()`, so a replayed run sees the recorded time. */
  now(): Date;
  /**
   * Where model calls made inside this call should go (a sub-agent's): the run's transport
   * scoped to this call, or undefined when the run's transport does not scope them.
   */
  subTransport?():
    | { send(request: MessagesRequest, options?: { signal?: AbortSignal }): Promise<ModelResponse> }
    | undefined;
  /**
   * While the run replays a recording: the replay's referee for the run recorded inside this call
   * (a sub-agent's run passes it on as its `replay` option), or undefined outside a replay.
   */
  subReplay?(): object | undefined;
  /**
   * For a call a person approved: a key unique to this approved call, the same in every process
   * that runs it (a recovery included). Pass it to the system the tool acts on (a payment API's
   * idempotency key, a unique constraint) so the effect happens at most once.
   */
  idempotencyKey?: string;
  /** Hands the runtime a sub-agent's whole result, kept on the call and recorded under it. */
  reportSubRun?(result: unknown): void;
  /**
   * Adds usage spent inside the tool (a sub-agent's model calls) to the run's: counters by the
   * names of the run's `Usage` (`inputTokens`, `webSearchRequests`, ...); one left out counts as 0.
   */
  reportUsage?(usage: Readonly<Partial<Record<UsageCounter, number>>>): void;
}

/** A defined tool: its declaration checked, its binder compiled. */
export interface Tool<Args = unknown> {
  readonly name: string;
  readonly description: string | undefined;
  /** The JSON Schema the model is shown, and the binder checks against. */
  readonly inputSchema: PublishedSchema;
  /**
   * The schema of what `run` returns, when the tool declares one (`output`): checked on every call,
   * shown to MCP clients as `outputSchema`. The Messages API has no place for it.
   */
  readonly outputSchema?: PublishedSchema;
  /** Its output is content someone else wrote (a web page, an email): reading it taints the run. */
  readonly untrusted: boolean;
  /** It has real-world effects: a tainted run may not call it. */
  readonly privileged: boolean;
  /** The authorization policy that gates it, if any. */
  readonly policy: string | undefined;
  /** The tool that undoes it, if any. */
  readonly compensatedBy: string | undefined;
  /** Its work is done outside this process (an MCP server's tool): a replay serves it by default. */
  readonly remote: boolean;
  /** For a privileged tool: argument paths whose values a tainted run must trace to trusted text. */
  readonly sensitive: readonly string[] | undefined;
  /** For an untrusted tool: the output field paths outsiders write; undefined = its whole output. */
  readonly outsideAuthored: readonly string[] | undefined;
  /** The tool's own policy in a tainted run; undefined = its agent's (see `effectiveTaintPolicy`). */
  readonly onTaint: TaintPolicy | undefined;
  /**
   * For a tool declared with `renameUnsafeProperties` that needed it: each top-level argument name
   * the model is shown (`DateSent_lt`), with the name as declared (`DateSent<`), which `run` receives.
   */
  readonly wireNames?: Readonly<Record<string, string>>;
  /** Characters of output shown to the model before the rest is withheld; 0 for no cap. */
  readonly maxResultLength: number;
  /** What the tool declared about its effects, with MCP's defaults for what it left out. */
  readonly annotations: ResolvedAnnotations;
  /** The tool declared at least one annotation; otherwise `annotations` holds MCP's defaults. */
  readonly annotated: boolean;
  /** True when rules of the tool's own (a zod schema's refinements and transforms) run after the structural check. */
  readonly hasOwnRules: boolean;
  /** Non-fatal findings about the declaration (e.g. no description). */
  readonly warnings: readonly ToolDeclarationWarning[];
  /** Checks the model's input against {@link inputSchema}. Never throws. */
  bind(input: unknown, options?: BindOptions): BindResult<Args>;
  /** The tool's own code. Call it through an agent, which binds, guards and shapes around it. */
  run(args: Args, context: ToolContext): ToolOutput | Promise<ToolOutput>;
  /** The tool as the Messages API is shown it (the same frozen object every time). */
  definition(): Readonly<ToolDefinition>;
  /** The annotations under MCP's names (`readOnlyHint`, ...). */
  mcpAnnotations(): McpToolAnnotations;
}

/** Any tool, whatever its arguments. */
// Arguments are an input position: Tool<unknown> would not accept Tool<{ city: string }>.
// biome-ignore lint/suspicious/noExplicitAny: any tool, whatever its arguments.
export type AnyTool = Tool<any>;
