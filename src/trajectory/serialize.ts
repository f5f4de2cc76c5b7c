import YAML from 'yaml';
import { pathBeyondDepth } from '../json/jsonDepth.js';
import { jsonText } from '../json/jsonText.js';
import { MAX_YAML_VALUE_DEPTH } from './limits.js';
import type { RecordedBlock, RecordedResponse, RecordedResult, RecordedSubRun, RecordedTurn, RecordedUsage, Trajectory } from './types.js';

/** Keys whose small maps and lists read best on one line: `usage: { input: 12, output: 3 }`. */
const FLOW_KEYS = new Set(['usage', 'path', 'withheld', 'thinking']);

const STRINGIFY_OPTIONS = {
  indent: 2,
  lineWidth: 0, // never fold: long text and signatures stay byte-exact on one logical line
  minContentWidth: 0,
  blockQuote: 'literal',
  aliasDuplicateObjects: false, // a shared object is written twice, never as an alias the reader refuses
} as const;

/**
 * Text made only of spaces, tabs and line breaks, with a space or a tab. The library writes it as a
 * block scalar of blank lines, whose indentation a reader then takes from the longest of them,
 * so `" \n"` would read back as `"\n"`; it is written double-quoted instead.
 */
const isBlankLinesWithSpaces = (text: string) => /^[ \t\n]+$/.test(text) && text.includes('\n') && /[ \t]/.test(text);

/**
 * Writes a trajectory as YAML: keys in the documented order, long text as literal blocks,
 * small maps on one line. Serialising what `parseTrajectory` read gives the same bytes.
 */
export function serializeTrajectory(trajectory: Trajectory): string {
  const document = new YAML.Document(ordered(trajectory), STRINGIFY_OPTIONS);
  YAML.visit(document, {
    Pair(_key, pair) {
      if (YAML.isScalar(pair.key) && FLOW_KEYS.has(String(pair.key.value)) && (YAML.isMap(pair.value) || YAML.isSeq(pair.value))) {
        pair.value.flow = true;
      }
    },
    Scalar(_key, node) {
      if (typeof node.value === 'string' && isBlankLinesWithSpaces(node.value)) node.type = YAML.Scalar.QUOTE_DOUBLE;
    },
  });
  return document.toString(STRINGIFY_OPTIONS);
}

/** A copy with every key in its documented place and nothing undefined. */
function ordered(t: Trajectory): Record<string, unknown> {
  return compact({
    version: t.version,
    name: t.name,
    description: t.description,
    recordedAt: t.recordedAt,
    legate: t.legate,
    sdk: t.sdk,
    agent: t.agent,
    model: t.model,
    request: orderedRequest(t.request),
    tools: t.tools.map(orderedTool),
    agents: orderedAgents(t.agents),
    ...freeValue('input', t.input),
    clock: t.clock,
    match: t.match,
    serve: t.serve,
    expect: t.expect && { blocked: t.expect.blocked.map((b) => compact({ id: b.id, tool: b.tool, rule: b.rule })) },
    turns: t.turns.map(orderedTurn),
    summary: orderedSummary(t.summary),
  });
}

function orderedSummary(summary: Trajectory['summary']): Record<string, unknown> {
  return compact({
    stopReason: summary.stopReason,
    turns: summary.turns,
    handoffs: summary.handoffs?.map((h) => compact({ from: h.from, to: h.to, reason: h.reason, turn: h.turn })),
    tainted: summary.tainted,
    taintSource: summary.taintSource,
    usage: orderedUsage(summary.usage),
  });
}

function orderedTurn(turn: RecordedTurn): Record<string, unknown> {
  return compact({
    agent: turn.agent,
    response: orderedResponse(turn.response),
    approvals: turn.approvals?.map((a) => compact({ id: a.id, approve: a.approve, reason: a.reason })),
    results: turn.results?.map(orderedResult),
  });
}

function orderedRequest(r: Trajectory['request']): Record<string, unknown> {
  return compact({
    model: r.model,
    maxTokens: r.maxTokens,
    temperature: r.temperature,
    thinking: r.thinking && { budgetTokens: r.thinking.budgetTokens },
    system: r.system,
  });
}

function orderedAgents(agents: Trajectory['agents']): Record<string, unknown> | undefined {
  return agents && Object.fromEntries(Object.entries(agents).map(([name, agent]) => [name, { request: orderedRequest(agent.request), tools: agent.tools.map(orderedTool) }]));
}

function orderedTool(tool: Trajectory['tools'][number]): Record<string, unknown> {
  return compact({ name: tool.name, untrusted: tool.untrusted, privileged: tool.privileged, policy: tool.policy, digest: tool.digest });
}

function orderedResponse(r: RecordedResponse): Record<string, unknown> {
  return compact({
    id: r.id,
    model: r.model,
    stopReason: r.stopReason,
    stopSequence: r.stopSequence,
    usage: orderedUsage(r.usage),
    content: r.content.map(orderedBlock),
  });
}

function orderedBlock(block: RecordedBlock): Record<string, unknown> {
  if ('text' in block) return compact({ text: block.text, ...freeValue('citations', block.citations) });
  if ('thinking' in block) return { thinking: block.thinking, signature: block.signature };
  if ('redactedThinking' in block) return { redactedThinking: block.redactedThinking };
  if ('toolUse' in block) return { toolUse: { id: block.toolUse.id, name: block.toolUse.name, ...freeValue('input', block.toolUse.input) } };
  return freeValue('server', block.server);
}

function orderedResult(r: RecordedResult): Record<string, unknown> {
  return compact({
    id: r.id,
    tool: r.tool,
    outcome: r.outcome,
    code: r.code,
    argument: r.argument,
    path: r.path,
    errorClass: r.errorClass,
    rule: r.rule,
    source: r.source,
    withheld: r.withheld && { length: r.withheld.length, shown: r.withheld.shown },
    ...freeValue('content', r.content),
    subRun: r.subRun && orderedSubRun(r.subRun),
  });
}

/** A sub-agent's run, in the same order as a file's own fields. */
function orderedSubRun(run: RecordedSubRun): Record<string, unknown> {
  return compact({
    agent: run.agent,
    model: run.model,
    request: orderedRequest(run.request),
    tools: run.tools.map(orderedTool),
    agents: orderedAgents(run.agents),
    ...freeValue('input', run.input),
    turns: run.turns.map(orderedTurn),
    summary: orderedSummary(run.summary),
  });
}

function orderedUsage(u: RecordedUsage): Record<string, unknown> {
  return compact({ input: u.input, output: u.output, cacheCreation: u.cacheCreation, cacheRead: u.cacheRead });
}

/**
 * A value whose shape the format does not fix (a model's tool input, say): written as YAML, or,
 * when it nests deeper than the format writes as YAML, as JSON text under `<key>Json`.
 */
function freeValue(key: string, value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (pathBeyondDepth(value, MAX_YAML_VALUE_DEPTH) !== undefined) return { [`${key}Json`]: jsonText(value) ?? 'null' };
  return { [key]: value };
}

function compact(object: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) if (value !== undefined) result[key] = value;
  return result;
}
