import { describeValue } from '../json/describeValue.js';
import { resolveAnnotations, toMcpAnnotations } from './annotations.js';
import { createBinder } from './binder/createBinder.js';
import { ToolDeclarationError, type ToolDeclarationWarning } from './declarationError.js';
import type { OutputSchema } from './output/compileOutputSchema.js';
import { checkedRun, prepareToolOutput } from './output/toolOutput.js';
import type { ToolOutput } from './result/renderOutput.js';
import { isZodSchema, zodRefinement, zodToJsonSchema } from './schema/fromZod.js';
import { checkPropertyNames } from './schema/checkPropertyNames.js';
import { prepareSchema } from './schema/prepareSchema.js';
import { withOriginalNames } from './schema/safePropertyNames.js';
import type { Tool, ToolContext } from './tool.js';
import { checkToolOptions } from './checkToolOptions.js';
import { checkSensitiveArguments } from './provenanceOptions.js';
import type { ToolDeclaration } from './toolDeclaration.js';
import type { ArgsOf, ToolInput } from './toolInput.js';
import { checkToolName } from './toolName.js';
import { brandTool } from './toolBrand.js';

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
