export { isDefinedTool } from './toolBrand.js';
export { defineTool } from './defineTool.js';
export type { RunOutput, ToolDeclaration } from './toolDeclaration.js';
export type { ArgsOf, ToolInput } from './toolInput.js';
export type { Tool, AnyTool, ToolContext } from './tool.js';
export type { ToolAnnotations, ResolvedAnnotations, McpToolAnnotations } from './annotations.js';
export {
  ToolDeclarationError,
  type DeclarationErrorCode,
  type DeclarationProblem,
  type DeclarationWarningCode,
  type ToolDeclarationWarning,
} from './declarationError.js';
export type { BindOptions, BindResult, Binder } from './binder/createBinder.js';
export type { InvalidArgument, InvalidArgumentCode, ArgumentPath } from './binder/invalidArgument.js';
export type { JsonSchema, JsonObjectSchema, InferJsonSchema } from './schema/jsonSchema.js';
export type { PublishedSchema } from './schema/publishedSchema.js';
export type { ToolOutput, RenderedOutput } from './result/renderOutput.js';
export type { WithheldOutput } from './result/capOutput.js';
export {
  serverTool,
  isServerTool,
  defaultServerToolUntrusted,
  type ServerTool,
  type ServerToolOptions,
} from './serverTool.js';
export { toolError, type ToolError } from './result/toolError.js';
export { ToolResultError } from './result/toolResultError.js';
export type { OutputSchema, OutputOf } from './output/prepareOutput.js';
export { ToolOutputError } from './output/toolOutputError.js';
export { OutputSchemaError } from './output/outputSchemaError.js';
