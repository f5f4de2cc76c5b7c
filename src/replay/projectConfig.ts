import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { LegateError } from '../errors/LegateError.js';
import { importModule } from '../files/importModule.js';
import { auditDeclarationsProblem } from '../guard/auditDeclarations.js';
import { isMatchLevel, MATCH_LEVELS } from '../trajectory/matchLevel.js';
import { runToolsProblem } from './runToolsPolicy.js';
import { sampleRuleProblem, samplesProblem } from './sampleRule.js';
import { liveTransportProblem } from '../recording/liveTransport.js';
import type { LegateConfig } from './config.js';

const CONFIG_NAMES = ['legate.config.ts', 'legate.config.mts', 'legate.config.js', 'legate.config.mjs'];

/** How a message names a project's config when it has none: any of CONFIG_NAMES would do. */
const ANY_CONFIG = 'legate.config.*';

/**
 * The project's config as a message names it: its path from `cwd` (`legate.config.mjs`, `../legate.config.ts`),
 * or `legate.config.*` when the project has none.
 */
export function configShown(project: Pick<Project, 'configFile'>, cwd: string): string {
  return project.configFile === undefined ? ANY_CONFIG : relative(cwd, project.configFile) || project.configFile;
}

/** A config that is missing or malformed: said plainly, with what to write. */
export class ConfigError extends LegateError {
  constructor(
    readonly code: 'config_not_found' | 'invalid_config',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The project a run belongs to: the folder relative trajectory paths resolve against (the
 * config's folder, else the project root), and its config when it has one.
 */
export interface Project {
  /** Absolute: the config's folder, else the project root (the nearest package.json), else the cwd. */
  root: string;
  /** The config file, absolute, when the project has one. */
  configFile?: string;
  /** The config's default export, checked. */
  config?: LegateConfig;
}

/** A project known to have a config: what {@link loadProject} returns with `requireConfig: true`. */
export type ConfiguredProject = Project & { configFile: string; config: LegateConfig };

export interface LoadProjectOptions {
  /**
   * The config file (relative to `cwd`), or `false` for none. Default: the first
   * `legate.config.ts` (`.mts`, `.js`, `.mjs`) in `cwd` or a folder above it, up to the project
   * root (the nearest folder with a package.json).
   */
  config?: string | false;
  /** Where to look from, and what `config` is relative to. Default: `process.cwd()`. */
  cwd?: string;
  /** Throw a {@link ConfigError} (`config_not_found`) saying what to write when there is no config. */
  requireConfig?: boolean;
}

/**
 * The project seen from `cwd`, as `runTrajectory` and the `legate` command find it: its config
 * (the given one, else the first `legate.config.*` in `cwd` or a folder above it, up to the
 * project root), imported once per process (TypeScript needs no build step) and checked, and
 * its root: the config's folder, else the project root, else `cwd`. A config that is named but
 * missing, or malformed, is a {@link ConfigError}.
 */
export async function loadProject(options: LoadProjectOptions & { requireConfig: true }): Promise<ConfiguredProject>;
export async function loadProject(options?: LoadProjectOptions): Promise<Project>;
export async function loadProject(options: LoadProjectOptions = {}): Promise<Project> {
  const { config: explicit, requireConfig = false } = options;
  const cwd = resolve(options.cwd ?? process.cwd());
  let configFile: string | undefined;
  if (explicit !== false) configFile = explicit === undefined ? findConfigFile(cwd) : resolve(cwd, explicit);
  if (configFile === undefined) {
    if (!requireConfig) return { root: packageRoot(cwd) ?? cwd };
    throw new ConfigError(
      'config_not_found',
      `${ANY_CONFIG} was not found in ${cwd} or a folder above it (up to the project root). ` +
        `Write one that exports your agent factories:\n\n` +
        `  import { defineConfig } from 'legate';\n` +
        `  export default defineConfig({ agents: { support: (transport) => createSupportAgent(transport) } });`,
    );
  }
  return { root: dirname(configFile), configFile, config: await loadConfigFile(configFile, explicit || configFile) };
}

/** The first config in `cwd` or a folder above it, stopping after the project root. */
function findConfigFile(cwd: string): string | undefined {
  for (let folder = resolve(cwd); ; folder = dirname(folder)) {
    for (const name of CONFIG_NAMES) {
      const path = join(folder, name);
      if (existsSync(path)) return path;
    }
    if (existsSync(join(folder, 'package.json')) || dirname(folder) === folder) return undefined;
  }
}

function packageRoot(cwd: string): string | undefined {
  for (let folder = resolve(cwd); ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    if (dirname(folder) === folder) return undefined;
  }
}

const loaded = new Map<string, Promise<LegateConfig>>();

/** A config module, imported once per process (TypeScript through tsx where needed) and checked. */
function loadConfigFile(file: string, shown: string): Promise<LegateConfig> {
  let config = loaded.get(file);
  if (config === undefined) {
    if (!existsSync(file)) {
      const problem = 'does not exist; check the path (a relative one is resolved from the working folder).';
      throw new ConfigError('config_not_found', `${shown} ${problem}`);
    }
    config = importModule(file).then((module) => checkConfig(unwrapDefault(module.default), file));
    loaded.set(file, config);
    config.catch(() => loaded.delete(file));
  }
  return config;
}

/** A module compiled as CommonJS (no `"type": "module"` nearby) arrives as `{ default: config }`. */
export function unwrapDefault(exported: unknown): unknown {
  const inner = (exported as { default?: unknown } | undefined)?.default;
  return (exported as { agents?: unknown } | undefined)?.agents === undefined && inner !== undefined ? inner : exported;
}

function checkConfig(config: unknown, file: string): LegateConfig {
  if (typeof config !== 'object' || config === null) {
    const expected = 'export default defineConfig({ agents: { name: (transport) => agent } })';
    const given = config === null ? 'null' : typeof config;
    throw new ConfigError('invalid_config', `${file} must ${expected}, but its default export is ${given}.`);
  }
  const agents = (config as { agents?: unknown }).agents;
  if (agents !== undefined && (typeof agents !== 'object' || agents === null || Array.isArray(agents))) {
    const expected = 'agents must map names to factories { name: (transport) => agent }';
    const problem = `${expected}, but it is ${JSON.stringify(agents)}.`;
    throw new ConfigError('invalid_config', `${file}: ${problem}`);
  }
  for (const [name, factory] of Object.entries(agents ?? {})) {
    if (typeof factory !== 'function') {
      const problem = `agents.${name} must be a function (transport) => Agent, but it is a ${typeof factory}.`;
      throw new ConfigError('invalid_config', `${file}: ${problem}`);
    }
  }
  const { match, trajectories, runTools } = config as { match?: unknown; trajectories?: unknown; runTools?: unknown };
  if (match !== undefined && !isMatchLevel(match)) {
    const problem = `match must be one of ${MATCH_LEVELS.join(', ')}, but it is ${JSON.stringify(match)}.`;
    throw new ConfigError('invalid_config', `${file}: ${problem}`);
  }
  if (trajectories !== undefined && (typeof trajectories !== 'string' || trajectories.trim() === '')) {
    const given = JSON.stringify(trajectories);
    const problem = `trajectories must name a folder (relative to the config), but it is ${given}.`;
    throw new ConfigError('invalid_config', `${file}: ${problem}`);
  }
  const runToolsIssue = runTools === undefined ? undefined : runToolsProblem(runTools);
  if (runToolsIssue !== undefined) throw new ConfigError('invalid_config', `${file}: runTools ${runToolsIssue}.`);
  const { samples, pass } = config as { samples?: unknown; pass?: unknown };
  const samplesIssue = samples === undefined ? undefined : samplesProblem(samples);
  if (samplesIssue !== undefined) throw new ConfigError('invalid_config', `${file}: samples ${samplesIssue}.`);
  const passIssue = pass === undefined ? undefined : sampleRuleProblem(pass);
  if (passIssue !== undefined) throw new ConfigError('invalid_config', `${file}: pass ${passIssue}.`);
  const transport = (config as { transport?: unknown }).transport;
  const transportIssue = transport === undefined ? undefined : liveTransportProblem(transport);
  if (transportIssue !== undefined) throw new ConfigError('invalid_config', `${file}: transport ${transportIssue}.`);
  const audit = (config as { audit?: unknown }).audit;
  const auditIssue = audit === undefined ? undefined : auditDeclarationsProblem(audit);
  if (auditIssue !== undefined) throw new ConfigError('invalid_config', `${file}: audit declarations ${auditIssue}.`);
  return config as LegateConfig;
}
