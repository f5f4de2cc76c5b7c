import {
  Agent,
  Runner,
  Usage,
  tool,
  type AgentOutputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type StreamEvent,
} from '@openai/agents-core';
import { FINAL_TEXT, INPUT, SCRIPT, SYSTEM, TURN_USAGE, TURNS, toolBodies, toolDeclarations } from './scenario.js';
import type { LoopRun, ScriptedTurn } from './scenario.js';

/**
 * The scenario in OpenAI Agents JS: an `Agent` over the same tools (`tool()` over the same zod schemas
 * and bodies) run by a `Runner` against a scripted `Model`, tracing off (legate records no spans
 * either). Per turn, the runner serialises the agent's tools (the zod schemas as strict JSON Schema) and
 * the conversation into a model request, calls `getResponse`, classifies the output items, parses each
 * function call's JSON arguments and validates them with the zod schema, runs `execute`, turns the
 * result into a `function_call_result` item, appends the items to the run's history and sums usage.
 */
const message = (text: string): AgentOutputItem => ({
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text }],
});

const usage = () =>
  new Usage({
    requests: 1,
    inputTokens: TURN_USAGE.input,
    outputTokens: TURN_USAGE.output,
    totalTokens: TURN_USAGE.input + TURN_USAGE.output,
  });

const outputsOf = (script: readonly ScriptedTurn[]): AgentOutputItem[][] => [
  ...script.map(({ text, call }): AgentOutputItem[] => [
    message(text),
    {
      type: 'function_call',
      callId: call.id,
      name: call.name,
      arguments: JSON.stringify(call.input),
      status: 'completed',
    },
  ]),
  [message(FINAL_TEXT)],
];

/**
 * The scripted model answers turn n of the script, n being the number of tool results in the
 * conversation it is sent: it keeps no state, so one instance serves every run.
 */
class ScriptedModel implements Model {
  constructor(readonly outputs: AgentOutputItem[][]) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const input = typeof request.input === 'string' ? [] : request.input;
    const answered = input.filter((item) => item.type === 'function_call_result').length;
    const output = this.outputs[answered];
    if (output === undefined) throw new Error(`the script has no turn ${answered + 1}`);
    return { usage: usage(), output, responseId: `resp_bench_${answered + 1}` };
  }

  // biome-ignore lint/correctness/useYield: the bench runs without streaming
  async *getStreamedResponse(): AsyncIterable<StreamEvent> {
    throw new Error('the scripted model does not stream');
  }
}

const tools = toolDeclarations.map(({ name, description, input }) =>
  tool({ name, description, parameters: input, execute: toolBodies[name] as (args: unknown) => unknown }),
);
const agentFor = (script: readonly ScriptedTurn[]) =>
  new Agent({ name: 'support', instructions: SYSTEM, model: new ScriptedModel(outputsOf(script)), tools });
const agent = agentFor(SCRIPT);
const runner = new Runner({ tracingDisabled: true });

export async function runOpenAiAgents(script: readonly ScriptedTurn[] = SCRIPT) {
  return runner.run(script === SCRIPT ? agent : agentFor(script), INPUT, { maxTurns: TURNS });
}

export async function runOpenAiAgentsLoop(script: readonly ScriptedTurn[] = SCRIPT): Promise<LoopRun> {
  const result = await runOpenAiAgents(script);
  const inputs = new Map<string, unknown>();
  const calls: LoopRun['calls'] = [];
  for (const item of result.newItems) {
    const raw = item.rawItem as { type: string; callId?: string; name?: string; arguments?: string };
    if (item.type === 'tool_call_item' && raw.type === 'function_call')
      inputs.set(raw.callId!, JSON.parse(raw.arguments!));
    if (item.type === 'tool_call_output_item')
      calls.push({ name: raw.name!, input: inputs.get(raw.callId!), output: (item as { output: unknown }).output });
  }
  return { calls, text: String(result.finalOutput), turns: result.rawResponses.length };
}
