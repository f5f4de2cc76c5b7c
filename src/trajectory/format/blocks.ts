import * as z from 'zod';
import { TOOL_RESULT_BLOCK_TYPES, TYPED_BLOCK_TYPES } from '../../messages/knownValues.js';
import type { OtherBlock, ToolCaller, ToolResultContent, UserBlock } from '../../messages/types.js';
import { either, flow, free, list, mapping, oneOf, openMapping, text, typedAs } from './values.js';

/**
 * Content blocks: a response's, keyed by their kind so the file reads like the conversation
 * (`- text: ...`, `- toolUse: {...}`); a user's input and a tool result's, as the API takes them.
 */

/**
 * A block of a type legate does not type (a server tool's, an MCP connector's, `compaction`, a
 * type added after this release), as the API sent it. Its `type` is any but the typed kinds,
 * which have forms of their own.
 */
const untypedBlock = () =>
  free(
    typedAs<OtherBlock>(
      openMapping({
        type: text().regex(new RegExp(`^(?!(?:${TYPED_BLOCK_TYPES.join('|')})$)`), {
          error: () => `a block type other than ${TYPED_BLOCK_TYPES.join(', ')} (those have forms of their own)`,
        }),
      }).meta({ description: 'A block of a type legate does not type, kept as the API sent it.' }),
    ),
  );

/** A block of a response, by its kind. The first field of each is the one that names the kind. */
export const recordedBlock = either(
  [
    mapping({ text: text(), citations: free(list(z.unknown())).optional() }),
    mapping({ thinking: text(), signature: text().meta({ description: 'Kept byte-exact: the API checks it.' }) }),
    mapping({ redactedThinking: text() }),
    mapping({
      toolUse: mapping({
        id: text(),
        name: text(),
        input: free(z.unknown()),
        caller: flow(
          free(
            typedAs<ToolCaller>(
              openMapping({ type: text() }).meta({
                description: 'Who made the call (`direct`, or a server tool: programmatic tool calling), as sent.',
              }),
            ),
          ),
        ).optional(),
        toolsetName: text().meta({ description: "The toolset of a toolset member's call." }).optional(),
      }),
    }),
    mapping({ block: untypedBlock() }),
    /** The name files recorded before every untyped block was kept gave a server tool's block. */
    mapping({ server: untypedBlock() }),
  ],
  'a content block',
).meta({ title: 'A response content block, keyed by its kind' });

/** The run's input: text, or the blocks of a user message. */
export const recordedInput = free(
  either([text(), list(typedAs<UserBlock>(openMapping({ type: text() })))], 'text or a list of content blocks').meta({
    description: "The user's input.",
  }),
);

/**
 * What the model was told for a tool call: text, or content blocks as the API takes them in a
 * tool_result (text, image, document, search_result, tool_reference), kept verbatim.
 */
export const recordedResultContent = free(
  either(
    [
      text(),
      list(
        typedAs<ToolResultContent>(
          either(
            [
              openMapping({ type: oneOf(['text']), text: text() }),
              openMapping({
                type: oneOf(TOOL_RESULT_BLOCK_TYPES.filter((t) => t !== 'text') as [string, ...string[]]),
              }),
            ],
            `a content block of one of the types ${TOOL_RESULT_BLOCK_TYPES.join(', ')}`,
          ),
        ),
      ),
    ],
    'text or a list of content blocks',
  ).meta({ description: 'What the model was told.' }),
);
