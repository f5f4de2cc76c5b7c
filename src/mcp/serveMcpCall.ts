import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { capOutput } from '../tools/result/capOutput.js';
import { collectOutput, renderOutput } from '../tools/result/renderOutput.js';
import { isToolError } from '../tools/result/toolError.js';
import { errorClassOf, toolFailedMessage } from '../tools/result/toolFailure.js';
import type { AnyTool, ToolContext } from '../tools/tool.js';
import type { SessionContracts } from './serveMcpContracts.js';
import { toMcpContent } from './serveMcpContent.js';

/** What an MCP client is told, as data, when a call is refused or fails. */
export type McpRefusal =
  | { error: 'invalid_argument'; argument: string | null; code: string; message: string }
  | { error: 'blocked'; rule: string; message: string }
  | { error: 'tool_failed'; tool: string; errorClass: string; message: string };

/** The session a call belongs to. */
interface McpCallScope {
  /** The MCP request's id: the call's id for the guard and the tool's `toolUseId`. */
  id: string;
  /** The server's name: the tool's `context.agent`. */
  server: string;
  signal: AbortSignal;
  contracts: SessionContracts | undefined;
}

/**
 * Answers one `tools/call` for a served tool as an agent run would: the session's contracts
 * first (legate's guard decides before the binder, as in a run), then the binder (its message
 * never quotes the value sent), then the tool, whose result is rendered and capped as the
 * Messages API would be sent it. Every refusal and failure is a tool execution error
 * (`isError: true`) the client's model can act on; only cancellation rejects.
 */
export async function answerCall(tool: AnyTool, input: unknown, scope: McpCallScope): Promise<CallToolResult> {
  const block = scope.contracts?.decide(scope.id, tool.name);
  if (block !== undefined) return refused(tool, { error: 'blocked', rule: block.rule, message: block.message });
  const bound = tool.bind(input ?? {}, { quoteValue: false });
  if (!bound.ok) {
    const { argument, code, message } = bound.invalid;
    return refused(tool, { error: 'invalid_argument', argument, code, message });
  }
  const context: ToolContext = {
    toolUseId: scope.id,
    agent: scope.server,
    signal: scope.signal,
    now: () => new Date(),
  };
  try {
    const value = await collectOutput(await tool.run(bound.args, context), scope.signal);
    if (isToolError(value))
      return {
        isError: true,
        content: toMcpContent(capOutput(tool.name, renderOutput(value.content), tool.maxResultLength).content),
      };
    const capped = capOutput(tool.name, renderOutput(value), tool.maxResultLength);
    const result: CallToolResult = { content: toMcpContent(capped.content) };
    if (tool.outputSchema !== undefined) result.structuredContent = value as Record<string, unknown>;
    scope.contracts?.succeeded(scope.id, tool.name);
    return result;
  } catch (thrown) {
    // A cancelled call is not a failing tool: the SDK sends no answer to a cancelled request.
    if (scope.signal.aborted) throw scope.signal.reason;
    const errorClass = errorClassOf(thrown);
    const message = toolFailedMessage(tool.name, errorClass);
    return refused(tool, { error: 'tool_failed', tool: tool.name, errorClass, message });
  }
}

/**
 * A tool execution error: the refusal as JSON text (the model reads the argument, the code and the
 * message), and as `structuredContent` unless the tool declares an output schema, which structured
 * content must match.
 */
function refused(tool: AnyTool, refusal: McpRefusal): CallToolResult {
  const result: CallToolResult = { isError: true, content: [{ type: 'text', text: JSON.stringify(refusal) }] };
  if (tool.outputSchema === undefined) result.structuredContent = { ...refusal };
  return result;
}
