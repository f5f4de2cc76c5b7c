import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { AnyTool } from '../tools/tool.js';

/**
 * A legate tool as `tools/list` shows it: the input schema the Messages API is sent (the same
 * frozen definition), the description and title, the annotations under MCP's hint names, and the
 * declared result schema as `outputSchema`.
 */
export function listedTool(tool: AnyTool): McpTool {
  const definition = tool.definition();
  const annotations = tool.mcpAnnotations();
  const listed: McpTool = {
    name: tool.name,
    inputSchema: definition.input_schema as McpTool['inputSchema'],
    annotations,
  };
  if (annotations.title !== undefined) listed.title = annotations.title;
  if (definition.description !== undefined) listed.description = definition.description;
  if (tool.outputSchema !== undefined) listed.outputSchema = tool.outputSchema as McpTool['outputSchema'];
  return listed;
}
