import { readFileSync } from 'node:fs';
import { dereference, validate } from '@readme/openapi-parser';
import { openApiTools } from 'legate/openapi';
import { figure, measureEach, MILLISECONDS, report } from './harness.js';

/**
 * Building tools from a large real document (Box's API, 296 operations, 1.7 MB of JSON:
 * test/fixtures/openapi/README.md) beside the parser's own dereference of the same document, in the
 * same run. openApiTools validates the document, dereferences it with that parser, then builds and
 * checks a tool per operation: the ratio is what validation and tool building cost on top of the
 * dereference alone. test/bench/openapi.test.ts runs it.
 */
const BOX = new URL('../test/fixtures/openapi/box-platform.json', import.meta.url);
const OPERATIONS = 296;

/** The document as the caller holds it: parsed once, outside the timing (both sides get their own copy). */
export function boxDocument(): Record<string, unknown> {
  return JSON.parse(readFileSync(BOX, 'utf8')) as Record<string, unknown>;
}

/** Every operation built (none selected away): tools plus operations skipped must account for all 296. */
export async function buildBoxTools(document: Record<string, unknown>): Promise<number> {
  const set = await openApiTools(document, { baseUrl: 'https://box.test/2.0', maxTools: 1000 });
  // A parameter left out of a tool's input (an optional header) is reported beside the operations skipped.
  const accounted = set.tools.length + set.skipped.filter((skip) => skip.parameter === undefined).length;
  if (accounted !== OPERATIONS) throw new Error(`expected ${OPERATIONS} operations accounted for, got ${accounted}`);
  return set.tools.length;
}

/** The anchor: @readme/openapi-parser's dereference of a copy of the same document (every path), nothing fetched. */
export async function dereferenceBox(document: Record<string, unknown>): Promise<number> {
  const api = await dereference(structuredClone(document) as never, {
    resolve: { external: false },
    dereference: { circular: true },
  });
  const paths = Object.keys((api as { paths: object }).paths).length;
  const expected = Object.keys(document.paths as object).length;
  if (paths !== expected) throw new Error(`expected ${expected} paths dereferenced, got ${paths}`);
  return paths;
}

/** Where the time goes: the parser's validation (which openApiTools runs first) plus its dereference. */
export async function validateAndDereferenceBox(document: Record<string, unknown>): Promise<number> {
  const options = { resolve: { external: false }, dereference: { circular: true as const } };
  const result = await validate(structuredClone(document) as never, options);
  if (!result.valid) throw new Error('the Box document should be valid');
  return dereferenceBox(document);
}

export async function benchOpenApi(options: { rounds?: number; roundMs?: number } = {}): Promise<void> {
  const document = boxDocument();
  let tools = 0;
  const [ours, anchor, parser] = await measureEach(
    [
      { name: 'legate openApiTools (all operations)', operation: async () => (tools = await buildBoxTools(document)) },
      { name: '@readme/openapi-parser dereference', operation: () => dereferenceBox(document) },
      { name: '  (parser validate + dereference)', operation: () => validateAndDereferenceBox(document) },
    ],
    { rounds: options.rounds ?? 5, roundMs: options.roundMs ?? 1500 },
  );
  const rounds = ours!.rounds.length;
  console.log(
    `OpenAPI: Box Platform API, ${OPERATIONS} operations, 1.7 MB JSON -> ${tools} tools ` +
      `(CPU time per document, median (min-max) of ${rounds} alternating rounds)`,
  );
  report({
    section: 'openapi',
    line: "openApiTools beside the parser's dereference alone",
    ours: ours!,
    anchor: anchor!,
    scale: { ...MILLISECONDS, digits: 1 },
    note: `${parser!.name.trim()}: ${figure(parser!, { ...MILLISECONDS, digits: 1 })}`,
  });
}
