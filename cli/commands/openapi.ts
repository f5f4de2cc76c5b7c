import { resolve } from 'node:path';
import { FileReadError, MAX_STRING_FILE_BYTES, readRegularFile } from '../../src/files/readRegularFile.js';
import { openApiTools } from '../../src/openapi/index.js';
import { fileProblem, missingProblem } from '../fileProblem.js';
import { terminalLines } from '../terminalText.js';
import type { CliIo } from '../io.js';
import { parseOptions } from '../parseOptions.js';

export const openapiHelp = `legate openapi <spec> [--tags a,b] [--operations x,y] [--prefix p] [--max-tools n]
                      [--max-document-nodes n]

Prints the tools openApiTools would build from an OpenAPI 3.0 or 3.1 document (JSON or YAML):
each tool with its method, path and safety flags (reads untrusted, writes privileged), and each
operation that would be skipped, with the reason. Nothing is called and nothing is fetched: a
remote $ref is reported, not followed. --tags and --operations (operationIds, or 'GET /path'
for an operation without one) select operations; --prefix goes before every tool name;
--max-tools raises the limit of 64 tools; --max-document-nodes the limit of 1,000,000 values the
part of the document read may have with its $refs followed. Exits 0 when the tools could be built,
2 when the document or an option cannot be used (one line saying why).`;

export async function openapi(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions({
    args: argv,
    allowPositionals: true,
    options: {
      tags: { type: 'string' },
      operations: { type: 'string' },
      prefix: { type: 'string' },
      'max-tools': { type: 'string' },
      'max-document-nodes': { type: 'string' },
    },
  });
  if (positionals.length !== 1) {
    io.err('legate openapi: give one OpenAPI document, e.g. legate openapi openapi.yaml');
    return 2;
  }
  const shown = positionals[0]!;
  const maxTools = values['max-tools'];
  const maxDocumentNodes = values['max-document-nodes'];
  for (const [flag, value] of [
    ['--max-tools', maxTools],
    ['--max-document-nodes', maxDocumentNodes],
  ] as const)
    if (value !== undefined && !/^[1-9]\d*$/.test(value)) {
      io.err(`legate openapi: ${flag} must be a whole number of at least 1, but it was "${value}".`);
      return 2;
    }
  let text: string;
  try {
    // Only a regular file is read: a FIFO or a device is refused, never waited on or read without end.
    text = readRegularFile(resolve(io.cwd, shown), MAX_STRING_FILE_BYTES);
  } catch (error) {
    const missing = error instanceof FileReadError && error.code === 'not_found';
    io.err(`legate openapi: ${missing ? missingProblem(shown) : fileProblem(shown, error, resolve(io.cwd, shown))}`);
    return 2;
  }
  const list = (value: string | undefined) =>
    value
      ?.split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  const tags = list(values.tags);
  const operationIds = list(values.operations);
  const set = await openApiTools(text, {
    // The tools are listed, never called: a base URL is needed only to build them.
    baseUrl: 'https://api.invalid',
    ...(tags === undefined ? {} : { tags }),
    ...(operationIds === undefined ? {} : { operationIds }),
    ...(values.prefix === undefined ? {} : { prefix: values.prefix }),
    ...(maxTools === undefined ? {} : { maxTools: Number(maxTools) }),
    ...(maxDocumentNodes === undefined ? {} : { maxDocumentNodes: Number(maxDocumentNodes) }),
  });
  // The document's title, paths and names are escaped: a document cannot rewrite what is printed about it.
  io.out(terminalLines(set.toText()));
  return 0;
}
