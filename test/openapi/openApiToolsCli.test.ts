import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { captureIo } from '../support/captureIo.js';
import { useTempDir } from '../support/tempDir.js';
import { PETS_YAML } from './openApiToolsSpecs.js';

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
      /^Pets \(OpenAPI 3\.0\.3\): 4 tools, 4 operations skipped\n\nTools:\n {2}get_pet_by_id {2}GET/,
    );
    expect(all.out).toContain("POST /store/orders (placeOrder): it requires the header parameter 'Idempotency-Key'");
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
      [['openapi', 'p.yaml', '--max-tools', '2'], { 'p.yaml': PETS_YAML }, /gives 4 tools, more than maxTools \(2\)/],
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

  it('has help, and is listed among the commands', async () => {
    expect((await legate(['openapi', '--help'])).out).toMatch(/^legate openapi <spec> \[--tags a,b\]/);
    expect((await legate(['--help'])).out).toMatch(/openapi +list the tools an OpenAPI document gives/);
  });
});
