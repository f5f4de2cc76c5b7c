import {
  Agent,
  ScriptedTransport,
  defineTool,
  reply,
  type AgentResult,
  type ModelResponse,
  type ScriptedReply,
  type Transport,
} from '../../src/index.js';
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
const replies = repliesOf(SCRIPT);

const agent = new Agent({
  name: 'support',
  model: MODEL,
  system: SYSTEM,
  tools,
  // Each run brings its own scripted model (below); this one is never asked.
  transport: new ScriptedTransport([]),
  maxTurns: TURNS,
});

export async function runLegate(script: readonly ScriptedTurn[] = SCRIPT): Promise<AgentResult> {
  return agent.run(INPUT, { transport: new ScriptedTransport(script === SCRIPT ? replies : repliesOf(script)) });
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
const responses = responsesOf(SCRIPT);

export async function runLegateBare(script: readonly ScriptedTurn[] = SCRIPT): Promise<AgentResult> {
  return agent.run(INPUT, { transport: new PresetTransport(script === SCRIPT ? responses : responsesOf(script)) });
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
