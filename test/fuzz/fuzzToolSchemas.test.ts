import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { fuzzTool } from '../../src/fuzz/index.js';
import { defineTool } from '../../src/index.js';
import { PUBLISHED_SCHEMAS } from './publishedSchemas.js';

/** Real schemas of each shape the fuzzers must handle (provenance in each fixture). */
const REAL = [
  // allOf parts meeting under one property (a union from one, a type from the other): once published as a union
  // with validation siblings, so a null was bound as a value where JSON Schema refuses it.
  'python-openapi/openapi-openai__createChatCompletion.json',
  'python-openapi/agentdojo__share_file.json', // pydantic $defs enum
  'python-openapi/agentdojo__send_email.json', // nullable lists of pydantic models, a free-form attachment
  'python-openapi/tau2-airline__book_reservation.json', // lists of $defs models
  'python-openapi/openapi-openai__createAssistant.json', // a root $ref into components, oneOf, nullable objects
  'mcp/python-sdk-example__name_shrimp.json', // FastMCP: $defs and a nested model
  'python-openapi/agentdojo__create_calendar_event.json', // pydantic Optional[list[str]] and defaults
  'mcp/github-mcp-server__projects_write.json', // oneOf, free-form objects
  'mcp/sentry-mcp__update_issue.json', // zod's nullable unions
];

function fixture(file: string): Record<string, unknown> {
  const url = new URL(`../fixtures/tool-schemas/${file}`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')).inputSchema;
}

describe('fuzzTool over real schemas', () => {
  for (const file of REAL) {
    it(`finds nothing wrong with ${file}`, async () => {
      const tool = defineTool({ name: 'real_tool', description: file, input: fixture(file) as never, run: () => 'ok' });
      const report = await fuzzTool(tool, { numRuns: 200, seed: 5 });
      expect(report.failures).toEqual([]);
    });
  }
});

describe('fuzzTool over every shape of the published form', () => {
  for (const [name, schema] of Object.entries(PUBLISHED_SCHEMAS)) {
    it(`finds nothing wrong with ${name}`, async () => {
      const tool = defineTool({ name, description: 'A tool.', input: schema as never, run: () => 'ok' });
      const report = await fuzzTool(tool, { numRuns: 200, seed: 9 });
      expect(report.failures).toEqual([]);
    });
  }
});

describe('fuzzTool over the zod shapes issue 13 lists', () => {
  type Node = { label: string; children: Node[] };
  const node: z.ZodType<Node> = z.lazy(() => z.object({ label: z.string().max(5), children: z.array(node) }));
  const shapes: Record<string, z.ZodObject> = {
    union: z.object({ id: z.union([z.number().int(), z.string().min(1)]) }),
    discriminatedUnion: z.object({
      shape: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('a'), x: z.number() }),
        z.object({ kind: z.literal('b'), y: z.string() }),
      ]),
    }),
    record: z.object({ labels: z.record(z.string(), z.number()) }),
    tuple: z.object({ point: z.tuple([z.number(), z.number()]) }),
    lazy: z.object({ root: node }),
    nullableOptionalDefault: z.object({
      a: z.string().nullable(),
      b: z.number().optional(),
      c: z.string().default('x'),
      d: z.string().nullable().default(null),
    }),
    refined: z.object({ n: z.number().refine((v) => v > 0, 'positive') }),
  };
  it.each(Object.entries(shapes))('finds nothing wrong with %s', async (name, input) => {
    const tool = defineTool({ name, description: 'A tool.', input, run: () => 'ok' });
    const report = await fuzzTool(tool, { numRuns: 300, seed: 4 });
    expect(report.failures).toEqual([]);
  });
});
