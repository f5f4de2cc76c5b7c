import { resolve } from 'node:path';
import { importModule } from '../files/importModule.js';
import type { LegateConfig } from '../replay/config.js';
import { unwrapDefault } from '../replay/projectConfig.js';
import type { AgentFactory } from '../replay/config.js';
import { toolsReachableFrom } from '../runtime/agentGraph.js';
import { looksLikeTool, moduleTools } from '../tools/moduleTools.js';
import type { AnyTool } from '../tools/tool.js';
import type { Redaction } from '../trajectory/redaction.js';
import { ScriptedTransport } from '../transport/scripted/ScriptedTransport.js';

/** What a set of modules offers to fuzz, and what their configs declare a finding must hide. */
export interface FuzzTargets {
  /** Each tool once by name: exported, or reachable from an exported agent (handoffs and sub-agents included). */
  tools: AnyTool[];
  /** Agent factories by name: a module's `agents` export, or its default export's `agents` (a config). */
  agents: Map<string, AgentFactory>;
  /** The `redactions` of every config among the modules, in order. */
  redactions: Redaction[];
  /** The `secrets` of every config among the modules, in order. */
  secrets: (RegExp | string)[];
}

/**
 * The targets `legate fuzz` fuzzes in the given module files (relative to `cwd`, default
 * `process.cwd()`; TypeScript needs no build step): every tool a module offers (its `tools` export,
 * else its default export's tools, else every exported tool, as `legate mcp serve` reads them:
 * moduleTools), every agent factory
 * (an `agents` export, or a default export shaped like a `legate.config.ts`), and every tool
 * those agents can reach. A later module's tool or agent of the same name replaces an earlier
 * one's. Give `tools` to fuzzTool and `agents` to fuzzInjection, with the redactions and
 * secrets, so a finding written to a file never holds a secret the configs declare.
 */
export async function findFuzzTargets(
  modules: readonly string[],
  options: { cwd?: string } = {},
): Promise<FuzzTargets> {
  const cwd = options.cwd ?? process.cwd();
  const targets: FuzzTargets = { tools: [], agents: new Map(), redactions: [], secrets: [] };
  const tools = new Map<string, AnyTool>();
  for (const file of modules) {
    const module = await importModule(resolve(cwd, file));
    const config = unwrapDefault(module.default) as Partial<LegateConfig> | undefined;
    targets.redactions.push(...(config?.redactions ?? []));
    targets.secrets.push(...(config?.secrets ?? []));
    const factories = { ...(config?.agents ?? {}), ...((module.agents as Record<string, unknown> | undefined) ?? {}) };
    for (const [name, factory] of Object.entries(factories)) {
      if (typeof factory === 'function') targets.agents.set(name, factory as AgentFactory);
    }
    for (const value of moduleTools(module) ?? []) if (looksLikeTool(value)) tools.set(value.name, value);
  }
  for (const factory of targets.agents.values()) {
    for (const tool of toolsReachableFrom(factory(new ScriptedTransport([])))) {
      if (!tools.has(tool.name)) tools.set(tool.name, tool);
    }
  }
  targets.tools = [...tools.values()];
  return targets;
}
