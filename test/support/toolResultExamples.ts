import type { ToolResultContent } from '../../src/index.js';

/**
 * Content a tool_result takes, one example per kind, with the shapes of the SDK's
 * `ToolResultBlockParam` (@anthropic-ai/sdk 1.14.0, resources/messages/messages.d.ts) and the
 * values of the API documentation's own examples:
 * - image url: "Vision" (docs.anthropic.com/en/docs/build-with-claude/vision), the ant photo;
 * - PDF url: "PDF support" (.../build-with-claude/pdf-support), the model card addendum;
 * - plain-text and custom-content documents: "Citations" (.../build-with-claude/citations);
 * - search results: "Search results" (.../build-with-claude/search-results), the product guide;
 * - tool_reference: the SDK's `ToolReferenceBlockParam` (only `tool_name`).
 * The base64 PNG and PDF are made here, minimal stand-ins: legate passes data on, never decodes it.
 */

/** A 1x1 transparent PNG, base64. */
export const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A minimal one-page PDF (no xref table), base64. */
export const PDF_BASE64 = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 3 3]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
).toString('base64');

export const EXAMPLES = {
  text: [{ type: 'text', text: '15 degrees' }],
  imageBase64: [
    { type: 'text', text: 'The chart:' },
    { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
  ],
  imageUrl: [
    {
      type: 'image',
      source: {
        type: 'url',
        url: 'https://upload.wikimedia.org/wikipedia/commons/a/a7/Camponotus_flavomarginatus_ant.jpg',
      },
    },
  ],
  pdfBase64: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF_BASE64 } }],
  pdfUrl: [
    {
      type: 'document',
      source: {
        type: 'url',
        url: 'https://assets.anthropic.com/m/1cd9d098ac3e6467/original/Claude-3-Model-Card-October-Addendum.pdf',
      },
    },
  ],
  plainTextDocument: [
    {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: 'The grass is green. The sky is blue.' },
      title: 'My Document',
      context: 'This is a trustworthy document.',
      citations: { enabled: true },
    },
  ],
  customContentDocument: [
    {
      type: 'document',
      source: {
        type: 'content',
        content: [
          { type: 'text', text: 'First chunk' },
          { type: 'text', text: 'Second chunk' },
        ],
      },
      title: 'Document Title',
      context: 'Context about the document that will not be cited from',
      citations: { enabled: true },
    },
  ],
  searchResults: [
    {
      type: 'search_result',
      source: 'https://docs.company.com/product-guide',
      title: 'Product Configuration Guide',
      content: [
        {
          type: 'text',
          text:
            'To configure the product, navigate to Settings > Configuration. The default timeout is 30 seconds, ' +
            'but can be adjusted between 10-120 seconds based on your needs.',
        },
      ],
      citations: { enabled: true },
    },
    {
      type: 'search_result',
      source: 'https://docs.company.com/troubleshooting',
      title: 'Troubleshooting Guide',
      content: [
        {
          type: 'text',
          text:
            'If you encounter timeout errors, first check the configuration settings. Common causes include ' +
            'network latency and incorrect timeout values.',
        },
      ],
      citations: { enabled: true },
    },
  ],
  toolReference: [{ type: 'tool_reference', tool_name: 'get_weather' }],
} satisfies Record<string, ToolResultContent[]>;
