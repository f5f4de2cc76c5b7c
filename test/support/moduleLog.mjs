// Given to a child process with `node --import`: writes every module the process loads, one URL a line, to the file
// LEGATE_MODULE_LOG names. ES modules (and CommonJS ones they import) are seen by a load hook as they load; CommonJS
// modules that are required (createRequire) are read from require's cache as the process exits.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

const log = process.env.LEGATE_MODULE_LOG;
if (log === undefined) throw new Error('moduleLog.mjs needs LEGATE_MODULE_LOG: the file to write the modules to');
register('./moduleLogHooks.mjs', import.meta.url, { data: { log } });
const require = createRequire(import.meta.url);
process.on('exit', () => {
  const required = Object.keys(require.cache).map((file) => `${pathToFileURL(file).href}\n`);
  appendFileSync(log, required.join(''));
});
