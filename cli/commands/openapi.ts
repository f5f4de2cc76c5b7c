import { resolve } from 'node:path';
import { FileReadError, MAX_STRING_FILE_BYTES, readRegularFile } from '../../src/files/readRegularFile.js';
import { OpenApiError, type OpenApiTools, openApiTools } from '../../src/openapi/index.js';
import { fileProblem, missingProblem } from '../fileProblem.js';
import { terminalLines } from '../terminalText.js';
import type { CliIo } from '../io.js';
import { parseOptions } from '../parseOptions.js';

export const openapiHelp = `legate openapi <spec> [--tags a,b] [--operations x,y] [--prefix p] [--max-tools n]
                      [--max-document-nodes n]

Lists the operations of an OpenAPI 3.0 or 3.1 document (JSON or YAML), grouped by tag with their
counts: each as the tool openApiTools would build (name, method, path, safety flags: reads
untrusted, writes privileged) or as skipped, with the reason. Nothing is called and nothing is
fetched: a remote $ref is reported, not followed. --tags and --operations (operationIds, or
'GET /path' for an operation without one) select operations; --prefix goes before every tool
name. Every operation selected is listed, however many: the limit of 64 tools applies where tools
are built for an agent (openApiTools' maxTools); --max-tools n checks a selection against n.
--max-document-nodes is the limit of 1,000,000 values the part of the document read may have with
its $refs followed. Exits 0 when the operations were listed, 2 when the document or an option
cannot be used, or the selection gives more tools than --max-tools (one line saying why).`;

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
  let set: OpenApiTools;
  try {
    set = await openApiTools(text, {
      // The tools are listed, never called: a base URL is needed only to build them.
      baseUrl: 'https://api.invalid',
      ...(tags === undefined ? {} : { tags }),
      ...(operationIds === undefined ? {} : { operationIds }),
      ...(values.prefix === undefined ? {} : { prefix: values.prefix }),
      // A listing shows every operation selected: only a limit given on the command line applies.
      maxTools: maxTools === undefined ? Number.MAX_SAFE_INTEGER : Number(maxTools),
      ...(maxDocumentNodes === undefined ? {} : { maxDocumentNodes: Number(maxDocumentNodes) }),
    });
  } catch (error) {
    if (!(error instanceof OpenApiError) || error.tooManyTools === undefined) throw error;
    const some = tags === undefined && operationIds === undefined ? 'some' : 'fewer';
    io.err(
      `legate openapi: ${some === 'some' ? 'the document gives' : 'the operations selected give'} ` +
        `${error.tooManyTools.tools.toLocaleString('en-US')} tools, more than --max-tools ` +
        `(${error.tooManyTools.maxTools}). Select ${some} with --tags or --operations (without --max-tools, ` +
        'every operation is listed by tag), or raise --max-tools.',
    );
    return 2;
  }
  // The document's title, paths and names are escaped: a document cannot rewrite what is printed about it.
  io.out(terminalLines(set.toText()));
  io.out(
    "\nSelect with --tags a,b or --operations x,y (operationIds, or 'GET /path'). An agent is given at most\n" +
      "openApiTools' maxTools tools (64 unless raised): a prompt with many tool schemas costs more and chooses worse.",
  );
  return 0;
}
