import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface Provenance {
  source: string;
  repository: string | null;
  path: string | null;
  commit: string | null;
  package: string | null;
  url: string | null;
  notes: string;
}

/** One file of test/fixtures/tool-schemas: a real tool's input schema and where it came from. */
export interface ToolSchemaFixture {
  /** The file, relative to test/fixtures/tool-schemas. */
  file: string;
  /** Its folder: mcp, python-openapi, zod, pydantic. */
  collection: string;
  provenance: Provenance;
  tool: string;
  description: string | null;
  inputSchema: Record<string, unknown>;
}

export const TOOL_SCHEMAS_DIR = join(import.meta.dirname, '..', 'fixtures', 'tool-schemas');

/** Every fixture, sorted by file, read fresh (tests may not share mutable copies). */
export function toolSchemaFixtures(): ToolSchemaFixture[] {
  const files = readdirSync(TOOL_SCHEMAS_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.json'))
    .sort();
  return files.map((file) => {
    const parsed = JSON.parse(readFileSync(join(TOOL_SCHEMAS_DIR, file), 'utf8')) as Omit<
      ToolSchemaFixture,
      'file' | 'collection'
    >;
    const name = relative(TOOL_SCHEMAS_DIR, join(TOOL_SCHEMAS_DIR, file));
    return { file: name, collection: name.split(/[\\/]/)[0]!, ...parsed };
  });
}

/** A fixture's tool name under legate's name rule: 1 to 128 of [A-Za-z0-9_-], anything else as '_'. */
export function legateToolName(tool: string): string {
  return tool.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 128) || 'tool';
}
