import { Refusal } from '../binder/invalidArgument.js';
import { collectOutput, type ToolOutput } from '../result/renderOutput.js';
import { isToolError } from '../result/toolError.js';
import type { ToolContext } from '../tool.js';
import { compileOutputSchema, type CompiledOutputSchema } from './compileOutputSchema.js';
import { ToolOutputError } from './toolOutputError.js';

/** A tool's declared `output` schema, read when the tool is defined (a mistake is a ToolDeclarationError). */
export function prepareToolOutput(tool: string, output: unknown): CompiledOutputSchema {
  return compileOutputSchema(tool, output, 'the result was refused');
}

/**
 * Wraps a tool's `run` so that what it returns is checked against its output schema, wherever
 * the tool is called from (an agent's run, a compensation, an MCP client): an async iterable is
 * collected first, an error result (`toolError`) passes as it is, and anything else must match
 * the schema, or the call fails with {@link ToolOutputError}. The value returned is the one `run`
 * returned (zod's transforms are for checking, not applied): what is published must match the
 * published schema.
 */
export function checkedRun<Args>(
  tool: string,
  output: CompiledOutputSchema,
  run: (args: Args, context: ToolContext) => ToolOutput | Promise<ToolOutput>,
): (args: Args, context: ToolContext) => Promise<ToolOutput> {
  return async (args, context) => {
    const value = await collectOutput(await run(args, context), context.signal);
    if (isToolError(value)) return value;
    if (typeof value === 'string') throw ToolOutputError.text(tool);
    const checked = output.check(value);
    if (checked instanceof Refusal) throw ToolOutputError.of(tool, checked);
    return value as ToolOutput;
  };
}
