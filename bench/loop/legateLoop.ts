import {
  Agent,
  ScriptedTransport,
  defineTool,
  reply,
  type AgentResult,
  type ModelResponse,
  type ScriptedReply,
  type Transport,
} from 'legate';
import {
  FINAL_TEXT,
  INPUT,
  MODEL,
  SCRIPT,
  SYSTEM,
  TURN_USAGE,
  TURNS,
  toolBodies,
  toolDeclarations,
  type LoopRun,
  type ScriptedTurn,
} from './scenario.js';

/**
 * The scenario in legate: an Agent over the three zod-declared tools, against a ScriptedTransport.
 * Per turn, legate builds the request (system, the tools' definitions, the conversation), sends it to
 * the transport (the scripted model keeps a copy of each request for a test to read, and tells the
 * canonical stream events of its answer), checks the response's shape, and for the tool_use: decides it
 * through the guard, binds the input (the structural check compiled from the zod schema, then zod's own
 * parse for its refinements), runs the body, renders the output as JSON text with its outcome, logs the
 * run's events and sums usage.
 */
const [findCustomer, listOrders, getOrder] = toolDeclarations;
const tools = [
  defineTool({ ...findCustomer, run: toolBodies.find_customer }),
  defineTool({ ...listOrders, run: toolBodies.list_orders }),
  defineTool({ ...getOrder, run: toolBodies.get_order }),
];

const usage = { input_tokens: TURN_USAGE.input, output_tokens: TURN_USAGE.output };
const repliesOf = (script: readonly ScriptedTurn[]): ScriptedReply[] => [
  ...script.map(({ text, call }) => ({ ...reply.toolUse(call.name, call.input, { id: call.id, text }), usage })),
  { ...reply.text(FINAL_TEXT), usage },
];
/** Each script's replies and bare responses, built once: a run measures the loop, not building its script. */
const built = new WeakMap<readonly ScriptedTurn[], { replies: ScriptedReply[]; responses: ModelResponse[] }>();
function builtOf(script: readonly ScriptedTurn[]): { replies: ScriptedReply[]; responses: ModelResponse[] } {
  let known = built.get(script);
  if (known === undefined) {
    known = { replies: repliesOf(script), responses: responsesOf(script) };
    built.set(script, known);
  }
  return known;
}

const agents = new Map<number, Agent>();
/** The support agent, allowed the scenario's turns or, for a longer script, as many as the script has. */
function agentFor(script: readonly ScriptedTurn[]): Agent {
  const maxTurns = Math.max(TURNS, script.length + 1);
  let agent = agents.get(maxTurns);
  if (agent === undefined) {
    agent = new Agent({
      name: 'support',
      model: MODEL,
      system: SYSTEM,
      tools,
      // Each run brings its own scripted model (below); this one is never asked.
      transport: new ScriptedTransport([]),
      maxTurns,
    });
    agents.set(maxTurns, agent);
  }
  return agent;
}

/** A conversation of `turns` model turns: the scenario's tool turns over and over, then its answer. */
export function longScript(turns: number): ScriptedTurn[] {
  return Array.from({ length: turns - 1 }, (_, i) => {
    const { text, call } = SCRIPT[i % SCRIPT.length]!;
    return { text, call: { ...call, id: `toolu_bench_${i + 1}` } };
  });
}

export async function runLegate(script: readonly ScriptedTurn[] = SCRIPT): Promise<AgentResult> {
  return agentFor(script).run(INPUT, { transport: new ScriptedTransport(builtOf(script).replies) });
}

/**
 * The same responses served as they are, with nothing else done: no copy of each request kept, no
 * stream events told (the anchors' scripted models do neither). What is left is the loop's own cost.
 */
class PresetTransport implements Transport {
  #served = 0;
  constructor(readonly responses: readonly ModelResponse[]) {}
  async send(): Promise<ModelResponse> {
    const response = this.responses[this.#served++];
    if (response === undefined) throw new Error(`the script has no turn ${this.#served}`);
    return response;
  }
}

const responsesOf = (script: readonly ScriptedTurn[]): ModelResponse[] =>
  repliesOf(script).map((scripted, i) => ({
    id: `msg_bench_${i + 1}`,
    type: 'message',
    role: 'assistant',
    model: MODEL,
    content: scripted.content.map((block) => (block.type === 'tool_use' ? { ...block, id: block.id! } : block)),
    stop_reason: scripted.stopReason,
    stop_sequence: null,
    usage: scripted.usage!,
  }));

export async function runLegateBare(script: readonly ScriptedTurn[] = SCRIPT): Promise<AgentResult> {
  return agentFor(script).run(INPUT, { transport: new PresetTransport(builtOf(script).responses) });
}

export async function runLegateLoop(script: readonly ScriptedTurn[] = SCRIPT): Promise<LoopRun> {
  return loopRunOf(await runLegate(script));
}

export async function runLegateBareLoop(script: readonly ScriptedTurn[] = SCRIPT): Promise<LoopRun> {
  return loopRunOf(await runLegateBare(script));
}

function loopRunOf(result: AgentResult): LoopRun {
  return {
    calls: result.toolCalls.map(({ name, input, output, outcome }) => ({
      name,
      input,
      // A tool's value reaches the model as JSON text; a refusal as the message the model reads.
      output: outcome === 'ok' ? JSON.parse(output as string) : output,
    })),
    text: result.text,
    turns: result.turns,
  };
}
