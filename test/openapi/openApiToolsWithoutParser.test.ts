import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve('.');
const loader = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;

describe('legate/openapi without @readme/openapi-parser installed', () => {
  it('imports, and openApiTools says which package to install', () => {
    const run = spawnSync(process.execPath, ['--import', loader, 'test/openapi/openApiToolsNoParser.ts'], {
      cwd: root,
      encoding: 'utf8',
      input: '',
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      imported: true,
      name: 'MissingPeerDependencyError',
      code: 'missing_peer_dependency',
      message: expect.stringContaining('npm install @readme/openapi-parser@^9.0.0'),
    });
  });
});
