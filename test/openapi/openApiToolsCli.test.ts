import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { captureIo } from '../support/captureIo.js';
import { useTempDir } from '../support/tempDir.js';
import { openApiFixture } from '../support/openApiCalls.js';
import { PETS_YAML } from './openApiToolsSpecs.js';
import { operationsOf } from './realSpecChecks.js';

const tempDir = useTempDir();

async function legate(argv: string[], files: Record<string, string> = {}) {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const io = captureIo(dir);
  const code = await main(argv, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr };
}

describe('legate openapi', () => {
  it('prints the summary of the tools a document gives, selected by tags and operations', async () => {
    const all = await legate(['openapi', 'pets.yaml'], { 'pets.yaml': PETS_YAML });
    expect(all.err).toEqual([]);
    expect(all.code).toBe(0);
    expect(all.out).toMatch(
      new RegExp(
        String.raw`^Pets \(OpenAPI 3\.0\.3\): 4 tools, 4 operations skipped, 1 parameter left out\n\n` +
          String.raw`pets: 5 operations, 1 skipped\n {2}get_pet_by_id {2}GET`,
      ),
    );
    expect(all.out).toContain("POST /store/orders (placeOrder): it requires the header parameter 'Idempotency-Key'");
    expect(all.out).toMatch(/\n\nSelect with --tags a,b or --operations x,y .*\n.*maxTools tools \(64 unless raised\)/);
    const some = await legate(
      ['openapi', 'pets.yaml', '--tags', 'pets', '--operations', 'listPets,addPet', '--prefix', 'p_'],
      {
        'pets.yaml': PETS_YAML,
      },
    );
    expect(some.out.split('\n').filter((line) => line.startsWith('  p_'))).toEqual([
      '  p_list_pets  GET /pets   untrusted',
      '  p_add_pet    POST /pets  privileged',
    ]);
  });

  it('says in one line, exit 2, what it cannot use: missing file, Swagger 2, too many tools, bad option', async () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['openapi', 'nothere.yaml'], {}, /^legate openapi: nothere\.yaml: does not exist; check the path/],
      [['openapi', 's.json'], { 's.json': '{"swagger":"2.0","info":{},"paths":{}}' }, /Swagger 2\.0 .*swagger2openapi/],
      [
        ['openapi', 'p.yaml', '--max-tools', '2'],
        { 'p.yaml': PETS_YAML },
        /^legate openapi: the document gives 4 tools, more than --max-tools \(2\)\. Select some with --tags or --op/,
      ],
      [
        ['openapi', 'p.yaml', '--max-tools', '1', '--tags', 'pets', '--operations', 'listPets,addPet'],
        { 'p.yaml': PETS_YAML },
        new RegExp(
          String.raw`^legate openapi: the operations selected give 2 tools, more than --max-tools \(1\)\. ` +
            String.raw`Select fewer .* raise --max-tools\.$`,
        ),
      ],
      [['openapi', 'p.yaml', '--max-tools', 'x'], { 'p.yaml': PETS_YAML }, /--max-tools must be a whole number.*"x"/],
      [
        ['openapi', 'p.yaml', '--max-document-nodes', '100'],
        { 'p.yaml': PETS_YAML },
        /too large to read: .*more than 100 nodes.*'maxDocumentNodes'/,
      ],
      [
        ['openapi', 'p.yaml', '--max-document-nodes', '1e6'],
        { 'p.yaml': PETS_YAML },
        /--max-document-nodes must be a whole number of at least 1, but it was "1e6"/,
      ],
      [['openapi', 'p.yaml', '--operations', 'nope'], { 'p.yaml': PETS_YAML }, /'operationIds' names 'nope'/],
      [
        ['openapi', 'bad.yaml'],
        { 'bad.yaml': 'openapi: 3.1.0\npaths: {}\n' },
        /^legate openapi: The OpenAPI document is not valid/,
      ],
      [['openapi'], {}, /give one OpenAPI document/],
      [['openapi', 'p.yaml', '--bogus'], { 'p.yaml': PETS_YAML }, /'--bogus'.*Run 'legate openapi --help'/],
    ];
    for (const [argv, files, says] of cases) {
      const run = await legate(argv, files);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.err, argv.join(' ')).toHaveLength(1);
      expect(run.err[0]).not.toContain('\n');
      expect(run.err[0]).toMatch(says);
    }
  });

  it('lists every operation of a document past 64 tools, by tag with counts, saying how to select', async () => {
    const box = openApiFixture('box-platform.json');
    const operations = operationsOf(JSON.parse(box) as Record<string, unknown>);
    const run = await legate(['openapi', 'box.json'], { 'box.json': box });
    expect(run.err).toEqual([]);
    expect(run.code).toBe(0);
    const lines = run.out.split('\n');
    expect(lines[0]).toMatch(
      /^Box Platform API \(OpenAPI 3\.0\.2\): 284 tools, 12 operations skipped, 14 parameters left out$/,
    );
    // Each tag's header counts the rows under it, and a tag's rows are the operations that tag selects, in the
    // document's order: a tool (name, operation, flags) or skipped ('-', operation, 'skipped').
    const groups = new Map<string, string[]>();
    let current: string[] | undefined;
    for (const line of lines.slice(2, lines.indexOf('Skipped:') - 1)) {
      const header = /^(\S.*): (\d+) operations?(?:, (\d+) skipped)?$/.exec(line);
      if (header !== null) {
        current = [];
        groups.set(header[1]!, current);
        expect(Number(header[2]), line).toBe(operations.filter((o) => o.tags.includes(header[1]!)).length);
      } else current!.push(line);
    }
    expect([...groups.keys()]).toEqual([...new Set(operations.flatMap((o) => o.tags))]);
    for (const [tag, rows] of groups) {
      const tagged = operations.filter((o) => o.tags.includes(tag));
      expect(
        rows.map((row) => row.split(/ {2,}/)[2]),
        tag,
      ).toEqual(tagged.map((o) => o.operation));
      for (const row of rows) expect(row.startsWith('  -  '), row).toBe(row.endsWith('  skipped'));
    }
    expect(lines.slice(-3)).toEqual([
      '',
      "Select with --tags a,b or --operations x,y (operationIds, or 'GET /path'). An agent is given at most",
      "openApiTools' maxTools tools (64 unless raised): a prompt with many tool schemas costs more and chooses worse.",
    ]);
    // A selection is listed with the tags of what was not selected, counted.
    const some = await legate(['openapi', 'box.json', '--tags', 'Folders,Files'], { 'box.json': box });
    expect(some.out.split('\n')[0]).toMatch(/^Box Platform API .*, 284 operations not selected$/);
    expect(some.out).toMatch(/\nNot selected, by tag: Authorization \(4\), Trashed files \(3\), /);
  });

  it('has help, and is listed among the commands', async () => {
    expect((await legate(['openapi', '--help'])).out).toMatch(/^legate openapi <spec> \[--tags a,b\]/);
    expect((await legate(['--help'])).out).toMatch(/openapi +list an OpenAPI document's operations by tag/);
  });
});
