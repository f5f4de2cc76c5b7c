import type { ImageBlock, TextBlock, ToolResultContent } from '../messages/types.js';
import { toolError } from '../tools/result/toolError.js';
import type { ToolOutput } from '../tools/result/renderOutput.js';

/** The image types a tool result may carry (the Messages API's). */
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/**
 * A `tools/call` result as a legate tool's output: text as text, images (of the types the Messages
 * API takes) as images, every other block (audio, an embedded resource, a resource link, an image
 * of another type) as a line of text saying what it was; `structuredContent` as JSON text when the
 * server sent no text block (which, by MCP's advice, would carry it); `isError: true` as
 * {@link toolError}, which the model reads. A lone text block comes back as plain text; an embedded
 * text resource as its text under its URI.
 */
export function outputOf(result: Record<string, unknown>): ToolOutput {
  const given = (result.content ?? []) as Record<string, unknown>[];
  const blocks: ToolResultContent[] = [];
  for (const block of given) {
    const converted = contentOf(block);
    if (converted !== undefined) blocks.push(converted);
  }
  if (result.structuredContent !== undefined && !given.some((block) => block.type === 'text'))
    blocks.push({ type: 'text', text: JSON.stringify(result.structuredContent) });
  const content: string | ToolResultContent[] =
    blocks.length === 1 && blocks[0]!.type === 'text' ? (blocks[0] as TextBlock).text : blocks;
  if (result.isError === true)
    return toolError(content.length === 0 ? 'The tool reported an error and said nothing more.' : content);
  return content.length === 0 ? '' : content;
}

function contentOf(block: Record<string, unknown>): ToolResultContent | undefined {
  switch (block.type) {
    case 'text':
      // The Messages API refuses a blank text block; a blank one says nothing.
      return typeof block.text === 'string' && block.text.trim() !== '' ? text(block.text) : undefined;
    case 'image':
      return IMAGE_TYPES.includes(String(block.mimeType))
        ? ({
            type: 'image',
            source: { type: 'base64', media_type: block.mimeType, data: String(block.data) },
          } as ImageBlock)
        : text(`[image of type ${String(block.mimeType)}, not shown: tool results carry ${IMAGE_TYPES.join(', ')}]`);
    case 'audio':
      return text(`[audio of type ${String(block.mimeType)}, not shown: tool results carry no audio]`);
    case 'resource':
      return resourceText(block.resource as Record<string, unknown>);
    case 'resource_link':
      return text(
        `[resource link: ${String(block.name)} <${String(block.uri)}>` +
          `${block.mimeType === undefined ? '' : ` (${String(block.mimeType)})`}` +
          `${block.description === undefined ? '' : ` ${String(block.description)}`}]`,
      );
    default:
      return text(`[a ${String(block.type)} block, not shown]`);
  }
}

function resourceText(resource: Record<string, unknown>): TextBlock {
  const uri = String(resource.uri);
  if (typeof resource.text === 'string') return text(`[resource <${uri}>]\n${resource.text}`);
  return text(`[resource <${uri}> of type ${String(resource.mimeType ?? 'unknown')}, binary, not shown]`);
}

function text(value: string): TextBlock {
  return { type: 'text', text: value };
}
