import fc from 'fast-check';
import type { ToolResultContent } from '../../src/index.js';

/**
 * Any content a tool_result takes, by the SDK's `ToolResultBlockParam` (@anthropic-ai/sdk 1.14.0):
 * text, image, document, search_result and tool_reference blocks, each with its optional fields
 * present or not.
 */

const words = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== '');
const url = fc.webUrl();
const base64 = fc.base64String({ minLength: 4, maxLength: 40 });
const cacheControl = fc.oneof(
  fc.constant({ type: 'ephemeral' }),
  fc.record({ type: fc.constant('ephemeral'), ttl: fc.constantFrom('5m', '1h') }),
);
const citationsConfig = fc.oneof(fc.constant({}), fc.record({ enabled: fc.boolean() }));

/** A record with the given fields and any subset of the optional ones. */
function shape<R extends Record<string, fc.Arbitrary<unknown>>, O extends Record<string, fc.Arbitrary<unknown>>>(
  required: R,
  optional: O,
) {
  return fc.record({ ...required, ...optional }, { requiredKeys: Object.keys(required) as never });
}

const text = shape({ type: fc.constant('text'), text: words }, { cache_control: cacheControl });
const imageSource = fc.oneof(
  fc.record({
    type: fc.constant('base64'),
    media_type: fc.constantFrom('image/jpeg', 'image/png', 'image/gif', 'image/webp'),
    data: base64,
  }),
  fc.record({ type: fc.constant('url'), url }),
  fc.record({ type: fc.constant('file'), file_id: words }),
);
const image = shape({ type: fc.constant('image'), source: imageSource }, { cache_control: cacheControl });
const documentSource = fc.oneof(
  fc.record({ type: fc.constant('base64'), media_type: fc.constant('application/pdf'), data: base64 }),
  fc.record({ type: fc.constant('text'), media_type: fc.constant('text/plain'), data: words }),
  fc.record({
    type: fc.constant('content'),
    content: fc.oneof(words, fc.array(fc.oneof(text, image), { minLength: 1, maxLength: 3 })),
  }),
  fc.record({ type: fc.constant('url'), url }),
  fc.record({ type: fc.constant('file'), file_id: words }),
);
const document = shape(
  { type: fc.constant('document'), source: documentSource },
  {
    title: fc.option(words, { nil: null }),
    context: fc.option(words, { nil: null }),
    citations: fc.option(citationsConfig, { nil: null }),
    cache_control: cacheControl,
  },
);
const searchResult = shape(
  {
    type: fc.constant('search_result'),
    source: words,
    title: words,
    content: fc.array(text, { minLength: 1, maxLength: 3 }),
  },
  { citations: citationsConfig, cache_control: cacheControl },
);
const toolReference = shape({ type: fc.constant('tool_reference'), tool_name: words }, { cache_control: cacheControl });

export const allowedBlock = fc.oneof(
  text,
  image,
  document,
  searchResult,
  toolReference,
) as unknown as fc.Arbitrary<ToolResultContent>;

export const allowedContent = fc.array(allowedBlock, { minLength: 1, maxLength: 4 });
