import type * as z from 'zod';
import { describeValue } from '../json/describeValue.js';
import { resolveAnnotations, toMcpAnnotations, type ToolAnnotations } from './annotations.js';
import { createBinder } from './binder/createBinder.js';
import { ToolDeclarationError, type ToolDeclarationWarning } from './declarationError.js';
import type { OutputSchema } from './output/compileOutputSchema.js';
import type { OutputOf } from './output/prepareOutput.js';
import { checkedRun, prepareToolOutput } from './output/toolOutput.js';
import type { ToolOutput } from './result/renderOutput.js';
import type { ToolError } from './result/toolError.js';
import type { InferToolArgs, JsonObjectSchema } from './schema/jsonSchema.js';
import { isZodSchema, zodRefinement, zodToJsonSchema } from './schema/fromZod.js';
import { checkPropertyNames } from './schema/checkPropertyNames.js';
import { prepareSchema } from './schema/prepareSchema.js';
import { withOriginalNames } from './schema/safePropertyNames.js';
import type { Tool, ToolContext } from './tool.js';
import { checkToolOptions } from './checkToolOptions.js';
import { checkSensitiveArguments } from './provenanceOptions.js';
import type { TaintPolicy } from './taintPolicy.js';
import { checkToolName } from './toolName.js';
import { brandTool } from './toolBrand.js';

/** A tool's input: a zod object schema, or a JSON Schema object (a literal, or one loaded from JSON). */
export type ToolInput = z.ZodType | JsonObjectSchema;

/** The arguments `run` receives for a given input schema, after defaults and transforms. */
export type ArgsOf<S> = 0 extends 1 & S
  ? Record<string, unknown>
  : S extends z.ZodType
    ? z.output<S>
    : InferToolArgs<S>;

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

/**
 * Declares a tool. Every mistake in the declaration is found here, with a stable code and
 * the property path, rather than when the model first calls the tool.
 */
export function defineTool<const S extends ToolInput, const O extends OutputSchema | undefined = undefined>(
  declaration: ToolDeclaration<S, O>,
): Tool<ArgsOf<S>> {
  if (typeof declaration !== 'object' || declaration === null) {
    throw new ToolDeclarationError(
      'not_a_declaration',
      '',
      '',
      `defineTool needs a declaration ({ name, description, input, run }), but it was ${describeValue(declaration)}.`,
    );
  }
  const name = checkToolName(declaration.name);
  checkToolOptions(name, declaration);
  const fail = (
    code: 'missing_run' | 'negative_max_result_length' | 'invalid_option',
    path: string,
    message: string,
  ): never => {
    throw new ToolDeclarationError(code, name, path, `Tool '${name}': ${message}`);
  };
  if (typeof declaration.run !== 'function')
    fail(
      'missing_run',
      'run',
      `'run' must be the function that does the work, but it was ${describeValue(declaration.run)}.`,
    );
  const maxResultLength = declaration.maxResultLength ?? 0;
  if (typeof maxResultLength !== 'number' || !Number.isInteger(maxResultLength)) {
    fail(
      'invalid_option',
      'maxResultLength',
      `'maxResultLength' must be a whole number of characters, but it was ${describeValue(maxResultLength)}.`,
    );
  }
  if (maxResultLength < 0) {
    fail(
      'negative_max_result_length',
      'maxResultLength',
      `'maxResultLength' cannot be negative (it was ${maxResultLength}); use 0 for no cap.`,
    );
  }

  const zod = isZodSchema(declaration.input) ? declaration.input : undefined;
  if (zod !== undefined && declaration.renameUnsafeProperties === true)
    fail(
      'invalid_option',
      'renameUnsafeProperties',
      "'renameUnsafeProperties' is for a JSON Schema input: a zod object's keys are names your code chooses, so " +
        'give them names the API allows.',
    );
  const prepared = prepareSchema(name, zod ? zodToJsonSchema(name, zod) : declaration.input, zod !== undefined);
  const named = checkPropertyNames(name, prepared.schema, declaration.renameUnsafeProperties === true);
  const inputSchema = named.schema;
  checkSensitiveArguments(
    declaration.sensitive,
    inputSchema.properties as Readonly<Record<string, unknown>> | undefined,
    (path, message) => fail('invalid_option', path, message),
  );
  const binder = createBinder<ArgsOf<S>>(name, inputSchema, zod && zodRefinement(zod));
  const annotations = resolveAnnotations(declaration.annotations);
  const description = declaration.description?.trim() || undefined;
  const warnings = [...(description === undefined ? [missingDescription(name)] : []), ...prepared.warnings];
  const output = declaration.output === undefined ? undefined : prepareToolOutput(name, declaration.output);
  const declaredRun = (
    named.wireNames === undefined ? declaration.run : withOriginalNames(declaration.run as never, named.wireNames)
  ) as (args: ArgsOf<S>, context: ToolContext) => ToolOutput | Promise<ToolOutput>;
  const run = output === undefined ? declaredRun : checkedRun(name, output, declaredRun);
  // One frozen object, so every request shows the same definition and its digest can be cached.
  const definition = Object.freeze(
    description === undefined ? { name, input_schema: inputSchema } : { name, description, input_schema: inputSchema },
  );

  const tool: Tool<ArgsOf<S>> = {
    name,
    description,
    inputSchema,
    ...(output === undefined ? {} : { outputSchema: output.schema }),
    untrusted: declaration.untrusted ?? false,
    privileged: declaration.privileged ?? false,
    policy: declaration.policy,
    compensatedBy: declaration.compensatedBy,
    remote: declaration.remote ?? false,
    sensitive: frozenList(declaration.sensitive),
    outsideAuthored: frozenList(declaration.outsideAuthored),
    onTaint: declaration.onTaint,
    ...(named.wireNames === undefined ? {} : { wireNames: Object.freeze(named.wireNames) }),
    maxResultLength,
    annotations,
    annotated: Object.values(declaration.annotations ?? {}).some((value) => value !== undefined),
    hasOwnRules: zod !== undefined,
    warnings,
    bind: binder,
    run: (args, context) => run(args, context),
    definition: () => definition,
    mcpAnnotations: () => toMcpAnnotations(annotations),
  };
  brandTool(tool);
  return tool;
}

function frozenList(list: readonly string[] | undefined): readonly string[] | undefined {
  return list === undefined ? undefined : Object.freeze([...list]);
}

function missingDescription(tool: string): ToolDeclarationWarning {
  return {
    code: 'missing_description',
    tool,
    path: 'description',
    message: `Tool '${tool}' has no description. The model chooses tools by their descriptions; say when to call it.`,
  };
}
