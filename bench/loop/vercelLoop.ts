import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
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
} from './scenario.js';
import type { LoopRun, ScriptedTurn } from './scenario.js';

/** What the mock model's `doGenerate` answers (the provider spec's generate result). */
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

/**
 * The scenario in the Vercel AI SDK: `generateText` with the same tools (`tool()` over the same zod
 * schemas and bodies) against its `MockLanguageModelV3`, stopping at ten steps. Per step, the SDK
 * converts the prompt and tool definitions (the zod schemas to JSON Schema) for the model, calls
 * `doGenerate` (the mock keeps each call's options, by reference), reads the content, parses each
 * tool call's JSON input and validates it with the zod schema, runs `execute`, adds the result to the
 * conversation and the step to `steps`, sums usage and checks the stop condition.
 */
const tools = Object.fromEntries(
  toolDeclarations.map(({ name, description, input }) => [
    name,
    tool({ description, inputSchema: input, execute: toolBodies[name] as (args: unknown) => unknown }),
  ]),
);

const usage: GenerateResult['usage'] = {
  inputTokens: { total: TURN_USAGE.input, noCache: TURN_USAGE.input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: TURN_USAGE.output, text: TURN_USAGE.output, reasoning: 0 },
};

const resultsOf = (script: readonly ScriptedTurn[]): GenerateResult[] => [
  ...script.map(
    ({ text, call }): GenerateResult => ({
      content: [
        { type: 'text', text },
        { type: 'tool-call', toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.input) },
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_use' },
      usage,
      warnings: [],
    }),
  ),
  {
    content: [{ type: 'text', text: FINAL_TEXT }],
    finishReason: { unified: 'stop', raw: 'end_turn' },
    usage,
    warnings: [],
  },
];
const results = resultsOf(SCRIPT);

export async function runVercel(script: readonly ScriptedTurn[] = SCRIPT) {
  const doGenerate = script === SCRIPT ? results : resultsOf(script);
  const model = new MockLanguageModelV3({ modelId: MODEL, doGenerate });
  return generateText({ model, system: SYSTEM, prompt: INPUT, tools, stopWhen: stepCountIs(TURNS) });
}

export async function runVercelLoop(script: readonly ScriptedTurn[] = SCRIPT): Promise<LoopRun> {
  const result = await runVercel(script);
  return {
    calls: result.steps.flatMap((step) =>
      step.toolResults.map(({ toolName, input, output }) => ({ name: toolName, input, output })),
    ),
    text: result.text,
    turns: result.steps.length,
  };
}
