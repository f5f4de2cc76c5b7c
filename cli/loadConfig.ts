import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { LegateError, type LegateConfig } from '../src/index.js';
import { importModule } from './importModule.js';

export const CONFIG_NAMES = ['legate.config.ts', 'legate.config.mts', 'legate.config.js', 'legate.config.mjs'];

/** A config that is missing or malformed: said plainly, with what to write. */
export class ConfigError extends LegateError {
  constructor(
    /** `config_not_found`: no config file where one was looked for; `invalid_config`: it lacks what legate needs. */
    readonly code: 'config_not_found' | 'invalid_config',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Loads the project's `legate.config.*`: the given path, or the first of CONFIG_NAMES in the
 * working directory. TypeScript configs are loaded through tsx, so no build step is needed.
 */
export async function loadConfig(explicit: string | undefined, cwd = process.cwd()): Promise<{ file: string; config: LegateConfig }> {
  const file = explicit !== undefined ? resolve(cwd, explicit) : CONFIG_NAMES.map((name) => resolve(cwd, name)).find((path) => existsSync(path));
  if (file === undefined || !existsSync(file)) {
    throw new ConfigError(
      'config_not_found',
      `${explicit ?? 'legate.config.ts'} was not found in ${cwd}. Write one that exports your agent factories:\n\n` +
        `  import { defineConfig } from 'legate';\n  export default defineConfig({ agents: { support: (transport) => createSupportAgent(transport) } });`,
    );
  }
  const module = await importModule(file);
  return { file, config: checkConfig(unwrapDefault(module.default), file) };
}

/** A module compiled as CommonJS (no `"type": "module"` nearby) arrives as `{ default: config }`. */
export function unwrapDefault(exported: unknown): unknown {
  const inner = (exported as { default?: unknown } | undefined)?.default;
  return (exported as { agents?: unknown } | undefined)?.agents === undefined && inner !== undefined ? inner : exported;
}

function checkConfig(config: unknown, file: string): LegateConfig {
  const agents = (config as { agents?: unknown } | undefined)?.agents;
  if (typeof config !== 'object' || config === null || typeof agents !== 'object' || agents === null) {
    throw new ConfigError('invalid_config', `${file} must export default defineConfig({ agents: { name: (transport) => agent } }), but its default export has no 'agents'.`);
  }
  for (const [name, factory] of Object.entries(agents)) {
    if (typeof factory !== 'function') throw new ConfigError('invalid_config', `${file}: agents.${name} must be a function (transport) => Agent, but it is a ${typeof factory}.`);
  }
  return config as LegateConfig;
}
