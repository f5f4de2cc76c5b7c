import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { RenderedOutput } from '../tools/result/renderOutput.js';

/**
 * A tool result's content (as legate renders it for the Messages API) as MCP content blocks: text
 * as text, a base64 image as an image. MCP has no document, search result or tool reference
 * block, nor an image by URL or file id: those are sent as a text block holding the block's JSON,
 * so nothing the tool returned is lost.
 */
export function toMcpContent(content: RenderedOutput): ContentBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((block): ContentBlock => {
    if (block.type === 'text') return { type: 'text', text: block.text };
    if (block.type === 'image' && block.source.type === 'base64')
      return { type: 'image', data: block.source.data, mimeType: block.source.media_type };
    return { type: 'text', text: JSON.stringify(block) };
  });
}
