// `legate mcp list <server command...>`: an MCP server's tools with the flags legate gives them, and why.
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { mcpTools } from '../../src/mcp/index.js';
import { captureIo } from '../support/captureIo.js';
import { useTempDir } from '../support/tempDir.js';

const root = resolve('.');
const tempDir = useTempDir();
// The official filesystem server (npm @modelcontextprotocol/server-filesystem, a devDependency): openWorldHint: false
// on every tool.
const FILESYSTEM = join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const FIXTURE = join(root, 'test/mcp/fixtures/client-stdio.mjs');

describe('legate mcp list', () => {
  it('prints each filesystem tool: untrusted whatever its hints, privileged by its hints, and why', async () => {
    const folder = tempDir();
    const io = captureIo(root);
    expect(await main(['mcp', 'list', '--trusted', 'read_text_file', process.execPath, FILESYSTEM, folder], io)).toBe(
      0,
    );
    expect(io.stderr).toEqual([]);
    const untrusted = 'results untrusted whatever the hints';
    expect(io.stdout.join('\n')).toBe(
      [
        `${process.execPath} ${FILESYSTEM} ${folder}: 14 tools`,
        '  tool                       untrusted  privileged  why',
        `  read_file                  yes        no          ${untrusted}; readOnlyHint: true`,
        '  read_text_file             no         no          marked trusted; readOnlyHint: true',
        `  read_media_file            yes        no          ${untrusted}; readOnlyHint: true`,
        `  read_multiple_files        yes        no          ${untrusted}; readOnlyHint: true`,
        `  write_file                 yes        yes         ${untrusted}; destructiveHint: true`,
        `  edit_file                  yes        yes         ${untrusted}; destructiveHint: true`,
        `  create_directory           yes        yes         ${untrusted}; readOnlyHint: false`,
        `  list_directory             yes        no          ${untrusted}; readOnlyHint: true`,
        `  list_directory_with_sizes  yes        no          ${untrusted}; readOnlyHint: true`,
        `  directory_tree             yes        no          ${untrusted}; readOnlyHint: true`,
        `  move_file                  yes        yes         ${untrusted}; destructiveHint: true`,
        `  search_files               yes        no          ${untrusted}; readOnlyHint: true`,
        `  get_file_info              yes        no          ${untrusted}; readOnlyHint: true`,
        `  list_allowed_directories   yes        no          ${untrusted}; readOnlyHint: true`,
        '',
        "A tool's results are untrusted whatever its hints say: openWorldHint: false says where it reaches,",
        'not who wrote what it returns. When its content is yours, mark it trusted:',
        '  mcpTools({ ..., flags: { read_file: { untrusted: false } } })   (here: --trusted read_file)',
      ].join('\n'),
    );
  });

  it('says what mcpTools gives, tool by tool; a tool with no hints is privileged by default', async () => {
    const io = captureIo(root);
    expect(await main(['mcp', 'list', '--tools', 'weather,fail', '--', process.execPath, FIXTURE], io)).toBe(0);
    const rows = io.stdout[0]!.split('\n').slice(2, 4);
    const tools = await mcpTools({ command: process.execPath, args: [FIXTURE], filter: ['weather', 'fail'] });
    await tools.close();
    const yes = (flag: boolean) => (flag ? 'yes' : 'no');
    expect(rows.map((row) => row.trim().split(/ +/).slice(0, 3))).toEqual(
      tools.tools.map((tool) => [tool.name, yes(tool.untrusted), yes(tool.privileged)]),
    );
    expect(rows[1]).toContain("no readOnlyHint (MCP's default: false)");
  });

  it.each([
    [
      ['mcp', 'list'],
      "give the server's command, e.g. legate mcp list npx -y @modelcontextprotocol/server-filesystem .",
    ],
    [
      ['mcp', 'list', '--url', 'http://127.0.0.1:9/mcp', 'node', 'x.mjs'],
      "give the server's command or --url, not both",
    ],
    [
      ['mcp', 'list', '--url', 'not a url'],
      `--url must be the server's URL, such as http://127.0.0.1:3000/mcp, but it was "not a url".`,
    ],
    [
      ['mcp', 'list', '--trusted', 'read_everything', process.execPath, FIXTURE],
      `--trusted names "read_everything", which the server does not list; its tools are 'weather', 'send_email',`,
    ],
    [
      ['mcp', 'list', '--tools', 'nope', process.execPath, FIXTURE],
      `--tools names "nope", which the server does not list`,
    ],
    [['mcp', 'list', '--bogus', process.execPath, FIXTURE], "unknown option '--bogus'"],
    [['mcp', 'list', join(root, 'no-such-server-command')], "Could not connect to the MCP server '"],
  ])('legate %j exits 2 with one line saying why', async (args, message) => {
    const io = captureIo(root);
    expect(await main(args, io)).toBe(2);
    expect(io.stdout).toEqual([]);
    expect(io.stderr).toHaveLength(1);
    expect(io.stderr[0]).toContain(message);
    expect(io.stderr[0]).not.toMatch(/\n| {4}at /);
  });

  it('--help says what it prints and how to mark a tool trusted', async () => {
    const io = captureIo(root);
    expect(await main(['mcp', 'list', '--help'], io)).toBe(0);
    expect(io.stdout[0]).toContain('legate mcp list [--trusted a,b] [--tools a,b] [--] <server command...>');
    expect(io.stdout[0]).toContain('mcpTools({ flags: { name: { untrusted: false } } })');
    expect(io.stdout[0]).toContain('legate mcp serve <module>');
  });
});
