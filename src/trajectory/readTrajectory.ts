import { API_STOP_REASONS, SERVER_BLOCK_TYPES } from '../messages/types.js';
import {
  TRAJECTORY_VERSION,
  type RecordedApproval,
  type RecordedBlock,
  type RecordedOutcome,
  type RecordedResponse,
  type RecordedResult,
  type RecordedSubRun,
  type RecordedTool,
  type RecordedTurn,
  type RecordedUsage,
  type Trajectory,
} from './types.js';
import { Field, FieldError } from './field.js';
import { MATCH_LEVELS } from './matchLevel.js';

const OUTCOMES: RecordedOutcome[] = ['ok', 'error', 'invalid', 'blocked', 'planned', 'suspended'];

/**
 * Checks a parsed document against the trajectory format and returns it typed. Fields this
 * legate does not know are accepted and ignored, so files from a newer minor version still read.
 */
export function readTrajectory(document: unknown): Trajectory {
  const root = new Field(document, []);
  const version = root.get('version').integer();
  if (version > TRAJECTORY_VERSION) {
    throw new FieldError(['version'], `this file uses trajectory format version ${version}, and this legate reads version ${TRAJECTORY_VERSION}. Upgrade legate to read it.`);
  }
  if (version < 1) throw new FieldError(['version'], `the version must be 1 or more, but it was ${version}.`);
  const trajectory: Trajectory = {
    version,
    name: root.get('name').string(),
    recordedAt: root.get('recordedAt').string(),
    legate: root.get('legate').string(),
    // The run itself has the same fields as a sub-agent's run recorded under a call.
    ...readSubRun(root),
  };
  const description = root.optional('description')?.string();
  if (description !== undefined) trajectory.description = description;
  const sdk = root.optional('sdk')?.string();
  if (sdk !== undefined) trajectory.sdk = sdk;
  const clock = root.optional('clock')?.list().map((reading) => reading.string());
  if (clock !== undefined) trajectory.clock = clock;
  const match = root.optional('match')?.oneOf(MATCH_LEVELS);
  if (match !== undefined) trajectory.match = match;
  const serve = root.optional('serve')?.list().map((name) => name.string());
  if (serve !== undefined) trajectory.serve = serve;
  const expectations = root.optional('expect');
  if (expectations !== undefined) {
    trajectory.expect = {
      blocked: expectations.get('blocked').list().map((entry) => {
        const blocked: { id: string; tool: string; rule?: string } = { id: entry.get('id').string(), tool: entry.get('tool').string() };
        const rule = entry.optional('rule')?.string();
        if (rule !== undefined) blocked.rule = rule;
        return blocked;
      }),
    };
  }
  return trajectory;
}

function readAgents(field: Field): NonNullable<Trajectory['agents']> {
  return Object.fromEntries(
    Object.keys(field.object()).map((name) => {
      const agent = field.get(name);
      return [name, { request: readRequest(agent.get('request')), tools: agent.get('tools').list().map(readTool) }];
    }),
  );
}

/** A run: the file's own, or a sub-agent's recorded under its tool call (the same fields, minus the file's metadata). */
function readSubRun(field: Field): RecordedSubRun {
  const run: RecordedSubRun = {
    agent: field.get('agent').string(),
    model: field.get('model').string(),
    request: readRequest(field.get('request')),
    tools: field.get('tools').list().map(readTool),
    input: readInput(field.free('input') ?? field.get('input')),
    turns: field.get('turns').list().map(readTurn),
    summary: readSummary(field.get('summary')),
  };
  const agents = field.optional('agents');
  if (agents !== undefined) run.agents = readAgents(agents);
  return run;
}

function readRequest(field: Field): Trajectory['request'] {
  const request: Trajectory['request'] = { model: field.get('model').string(), maxTokens: field.get('maxTokens').integer() };
  const system = field.optional('system')?.string();
  if (system !== undefined) request.system = system;
  const temperature = field.optional('temperature')?.number();
  if (temperature !== undefined) request.temperature = temperature;
  const thinking = field.optional('thinking');
  if (thinking !== undefined) request.thinking = { budgetTokens: thinking.get('budgetTokens').integer() };
  return request;
}

function readTool(field: Field): RecordedTool {
  const tool: RecordedTool = { name: field.get('name').string(), digest: field.get('digest').string() };
  const untrusted = field.optional('untrusted')?.boolean();
  if (untrusted !== undefined) tool.untrusted = untrusted;
  const privileged = field.optional('privileged')?.boolean();
  if (privileged !== undefined) tool.privileged = privileged;
  const policy = field.optional('policy')?.string();
  if (policy !== undefined) tool.policy = policy;
  return tool;
}

function readInput(field: Field): Trajectory['input'] {
  if (typeof field.value === 'string') return field.value;
  return field.list().map((block) => block.object() as never);
}

function readTurn(field: Field): RecordedTurn {
  const turn: RecordedTurn = { response: readResponse(field.get('response')) };
  const agent = field.optional('agent')?.string();
  if (agent !== undefined) turn.agent = agent;
  const approvals = field.optional('approvals')?.list().map((approval) => {
    const recorded: RecordedApproval = { id: approval.get('id').string(), approve: approval.get('approve').boolean() };
    const reason = approval.optional('reason')?.string();
    if (reason !== undefined) recorded.reason = reason;
    return recorded;
  });
  if (approvals !== undefined) turn.approvals = approvals;
  const results = field.optional('results')?.list().map(readResult);
  if (results !== undefined) turn.results = results;
  return turn;
}

function readResponse(field: Field): RecordedResponse {
  const stopReason = field.get('stopReason');
  if (stopReason.value !== null) stopReason.oneOf(API_STOP_REASONS);
  const response: RecordedResponse = {
    id: field.get('id').string(),
    model: field.get('model').string(),
    stopReason: stopReason.value as RecordedResponse['stopReason'],
    usage: readUsage(field.get('usage')),
    content: field.get('content').list().map(readBlock),
  };
  const stopSequence = field.optional('stopSequence')?.string();
  if (stopSequence !== undefined) response.stopSequence = stopSequence;
  return response;
}

function readBlock(field: Field): RecordedBlock {
  const block = field.object();
  if ('text' in block) {
    const text: RecordedBlock = { text: field.get('text').string() };
    const citations = field.free('citations');
    if (citations !== undefined && citations.value !== null) text.citations = citations.list().map((c) => c.value);
    return text;
  }
  if ('thinking' in block) return { thinking: field.get('thinking').string(), signature: field.get('signature').string() };
  if ('redactedThinking' in block) return { redactedThinking: field.get('redactedThinking').string() };
  if ('toolUse' in block) {
    const use = field.get('toolUse');
    const input = use.free('input');
    if (input === undefined) throw new FieldError([...use.path, 'input'], 'a toolUse needs its input.');
    return { toolUse: { id: use.get('id').string(), name: use.get('name').string(), input: input.value } };
  }
  if ('server' in block || 'serverJson' in block) {
    const server = field.free('server')!;
    server.get('type').oneOf(SERVER_BLOCK_TYPES);
    return { server: server.object() as never };
  }
  throw new FieldError(field.path, `a content block must have one of text, thinking, redactedThinking, toolUse or server (or serverJson), but it had ${describeKeys(block)}.`);
}

function readResult(field: Field): RecordedResult {
  const result: RecordedResult = {
    id: field.get('id').string(),
    tool: field.get('tool').string(),
    outcome: field.get('outcome').oneOf(OUTCOMES),
    content: readResultContent(field.free('content') ?? field.get('content')),
  };
  const code = field.optional('code')?.string();
  if (code !== undefined) result.code = code;
  const argument = field.optional('argument')?.string();
  if (argument !== undefined) result.argument = argument;
  const path = field.optional('path')?.list().map((key) => (typeof key.value === 'number' ? key.integer() : key.string()));
  if (path !== undefined) result.path = path;
  const errorClass = field.optional('errorClass')?.string();
  if (errorClass !== undefined) result.errorClass = errorClass;
  const rule = field.optional('rule')?.string();
  if (rule !== undefined) result.rule = rule;
  const source = field.optional('source')?.string();
  if (source !== undefined) result.source = source;
  const withheld = field.optional('withheld');
  if (withheld !== undefined) result.withheld = { length: withheld.get('length').integer(), shown: withheld.get('shown').integer() };
  const subRun = field.optional('subRun');
  if (subRun !== undefined) result.subRun = readSubRun(subRun);
  return result;
}

function readResultContent(field: Field): RecordedResult['content'] {
  if (typeof field.value === 'string') return field.value;
  return field.list().map((block) => {
    const type = block.get('type').oneOf(['text', 'image'] as const);
    if (type === 'text') block.get('text').string();
    else block.get('source').object();
    return block.value as never;
  });
}

function readUsage(field: Field): RecordedUsage {
  const usage: RecordedUsage = { input: field.get('input').integer(), output: field.get('output').integer() };
  const cacheCreation = field.optional('cacheCreation')?.integer();
  if (cacheCreation !== undefined) usage.cacheCreation = cacheCreation;
  const cacheRead = field.optional('cacheRead')?.integer();
  if (cacheRead !== undefined) usage.cacheRead = cacheRead;
  return usage;
}

function readSummary(field: Field): Trajectory['summary'] {
  const summary: Trajectory['summary'] = { stopReason: field.get('stopReason').string(), turns: field.get('turns').integer(), usage: readUsage(field.get('usage')) };
  const handoffs = field.optional('handoffs')?.list().map((handoff) => {
    const recorded: NonNullable<Trajectory['summary']['handoffs']>[number] = { from: handoff.get('from').string(), to: handoff.get('to').string(), turn: handoff.get('turn').integer() };
    const reason = handoff.optional('reason')?.string();
    if (reason !== undefined) recorded.reason = reason;
    return recorded;
  });
  if (handoffs !== undefined) summary.handoffs = handoffs;
  const tainted = field.optional('tainted')?.boolean();
  if (tainted !== undefined) summary.tainted = tainted;
  const taintSource = field.optional('taintSource')?.string();
  if (taintSource !== undefined) summary.taintSource = taintSource;
  return summary;
}

function describeKeys(object: Record<string, unknown>): string {
  const keys = Object.keys(object);
  return keys.length === 0 ? 'no fields' : keys.map((k) => `'${k}'`).join(', ');
}
