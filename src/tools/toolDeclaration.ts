import type { ToolAnnotations } from './annotations.js';
import type { OutputSchema } from './output/compileOutputSchema.js';
import type { OutputOf } from './output/prepareOutput.js';
import type { ToolOutput } from './result/renderOutput.js';
import type { ToolError } from './result/toolError.js';
import type { TaintPolicy } from './taintPolicy.js';
import type { ToolContext } from './tool.js';
import type { ArgsOf, ToolInput } from './toolInput.js';

/**
 * What `run` returns: anything a tool result can show, or, for a tool that declares an `output`
 * schema, the value that schema describes (or an error result, `toolError(...)`).
 */
export type RunOutput<O> = [O] extends [undefined] ? ToolOutput : OutputOf<O> | ToolError | AsyncIterable<OutputOf<O>>;

export interface ToolDeclaration<S extends ToolInput, O extends OutputSchema | undefined = undefined> {
  /** The wire name the model calls: 1 to 128 letters, digits, '_' or '-'. */
  name: string;
  /** What the model reads to decide when to call it: say when to reach for it, not how it works. */
  description?: string;
  input: S;
  run(args: ArgsOf<S>, context: ToolContext): RunOutput<O> | Promise<RunOutput<O>>;
  /**
   * The result's schema, zod or JSON Schema (as `input`): what `run` returns is checked against it
   * on every call (a mismatch is the tool's failure, a ToolOutputError), and MCP clients are shown
   * it as the tool's `outputSchema`. See docs/tools.md, 'A declared result'.
   */
  output?: O;
  untrusted?: boolean;
  privileged?: boolean;
  policy?: string;
  compensatedBy?: string;
  maxResultLength?: number;
  annotations?: ToolAnnotations;
  /**
   * Its work is done outside this process (an MCP server's tool): a replay serves its recorded
   * results by default instead of contacting what it reaches (see `runTools`).
   */
  remote?: boolean;
  /**
   * For a privileged tool: the argument paths (`recipient`, `to.iban`, `recipients[]`) whose values,
   * in a tainted run, must be traced to trusted text for the call to go ahead. Without it, a tainted
   * run never calls the tool (strict taint). See docs/safety.md, 'Argument provenance'.
   */
  sensitive?: readonly string[];
  /**
   * For an untrusted tool: the paths of its JSON output that outsiders write (a transaction's
   * `subject`: `[].subject`); the rest is vouched for by the tool's owner. Without it, the whole
   * output is outside-authored.
   */
  outsideAuthored?: readonly string[];
  /**
   * For a privileged tool: what a tainted run does with a call provenance does not clear: `block`
   * (refused, rule `taint`) or `approve` (held for a person). Default: the agent's `onTaint`, else `block`.
   */
  onTaint?: TaintPolicy;
  /**
   * For a JSON Schema input whose top-level property names the Messages API refuses (`DateSent<`,
   * `filter[name]`, longer than 64 characters): show the model safe names instead (`DateSent_lt`,
   * `filter_name`), and give `run` the names as declared. Without it, such a name is refused here
   * (`invalid_property_name`). The tools `openApiTools` and `mcpTools` make set it. See docs/tools.md,
   * 'Property names'.
   */
  renameUnsafeProperties?: boolean;
}
