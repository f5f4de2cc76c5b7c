/** The spans legate emits, by their `gen_ai.operation.name`. */
type SpanOperation = 'invoke_agent' | 'chat' | 'execute_tool';

/** One attribute legate sets: its name, the spans that carry it, and whether it is message content. */
interface AttributeSpec {
  readonly name: string;
  readonly spans: readonly SpanOperation[];
  /** Set only when content recording is opted into (see recordsContent). */
  readonly content?: true;
}

const ALL: readonly SpanOperation[] = ['invoke_agent', 'chat', 'execute_tool'];
const RUN_AND_CHAT: readonly SpanOperation[] = ['invoke_agent', 'chat'];

/**
 * Every attribute legate's spans carry, named once: the OpenTelemetry GenAI semantic conventions'
 * (`gen_ai.*`, `error.type`) and legate's own (`legate.*`). The span builders read names from here,
 * and docs/scale.md lists exactly these (a test holds the two together).
 */
export const ATTRIBUTES = {
  operation: { name: 'gen_ai.operation.name', spans: ALL },
  provider: { name: 'gen_ai.provider.name', spans: RUN_AND_CHAT },
  agentName: { name: 'gen_ai.agent.name', spans: ['invoke_agent'] },
  conversationId: { name: 'gen_ai.conversation.id', spans: ['invoke_agent'] },
  requestModel: { name: 'gen_ai.request.model', spans: RUN_AND_CHAT },
  maxTokens: { name: 'gen_ai.request.max_tokens', spans: ['chat'] },
  temperature: { name: 'gen_ai.request.temperature', spans: ['chat'] },
  stopSequences: { name: 'gen_ai.request.stop_sequences', spans: ['chat'] },
  responseModel: { name: 'gen_ai.response.model', spans: ['chat'] },
  responseId: { name: 'gen_ai.response.id', spans: ['chat'] },
  finishReasons: { name: 'gen_ai.response.finish_reasons', spans: ['chat'] },
  inputTokens: { name: 'gen_ai.usage.input_tokens', spans: RUN_AND_CHAT },
  outputTokens: { name: 'gen_ai.usage.output_tokens', spans: RUN_AND_CHAT },
  cacheCreationTokens: { name: 'gen_ai.usage.cache_creation.input_tokens', spans: RUN_AND_CHAT },
  cacheReadTokens: { name: 'gen_ai.usage.cache_read.input_tokens', spans: RUN_AND_CHAT },
  reasoningTokens: { name: 'gen_ai.usage.reasoning.output_tokens', spans: RUN_AND_CHAT },
  toolName: { name: 'gen_ai.tool.name', spans: ['execute_tool'] },
  toolCallId: { name: 'gen_ai.tool.call.id', spans: ['execute_tool'] },
  toolType: { name: 'gen_ai.tool.type', spans: ['execute_tool'] },
  toolDescription: { name: 'gen_ai.tool.description', spans: ['execute_tool'] },
  errorType: { name: 'error.type', spans: ALL },
  systemInstructions: { name: 'gen_ai.system_instructions', spans: ['chat'], content: true },
  inputMessages: { name: 'gen_ai.input.messages', spans: ['chat'], content: true },
  outputMessages: { name: 'gen_ai.output.messages', spans: ['chat'], content: true },
  toolArguments: { name: 'gen_ai.tool.call.arguments', spans: ['execute_tool'], content: true },
  toolResult: { name: 'gen_ai.tool.call.result', spans: ['execute_tool'], content: true },
  agent: { name: 'legate.agent', spans: ['chat', 'execute_tool'] },
  turn: { name: 'legate.turn', spans: ['chat', 'execute_tool'] },
  stopReason: { name: 'legate.stop_reason', spans: ['invoke_agent'] },
  turns: { name: 'legate.turns', spans: ['invoke_agent'] },
  tainted: { name: 'legate.tainted', spans: ['invoke_agent'] },
  taintSource: { name: 'legate.taint.source', spans: ['invoke_agent'] },
  finalAgent: { name: 'legate.agent.final', spans: ['invoke_agent'] },
  suspended: { name: 'legate.suspended', spans: ['invoke_agent'] },
  pending: { name: 'legate.suspension.pending', spans: ['invoke_agent'] },
  resumed: { name: 'legate.resumed', spans: ['invoke_agent'] },
  approvedIds: { name: 'legate.approval.approved', spans: ['invoke_agent'] },
  deniedIds: { name: 'legate.approval.denied', spans: ['invoke_agent'] },
  decision: { name: 'legate.decision', spans: ['execute_tool'] },
  outcome: { name: 'legate.outcome', spans: ['execute_tool'] },
  rule: { name: 'legate.rule', spans: ['execute_tool'] },
  source: { name: 'legate.source', spans: ['execute_tool'] },
  invalidCode: { name: 'legate.invalid.code', spans: ['execute_tool'] },
  approved: { name: 'legate.approved', spans: ['execute_tool'] },
  served: { name: 'legate.served', spans: ['execute_tool'] },
  handoffFrom: { name: 'legate.handoff.from', spans: ['execute_tool'] },
  handoffTo: { name: 'legate.handoff.to', spans: ['execute_tool'] },
  subAgent: { name: 'legate.sub_agent', spans: ['execute_tool'] },
} as const satisfies Record<string, AttributeSpec>;

export type AttributeKey = keyof typeof ATTRIBUTES;

/** The provider every model call goes to, as the conventions name it. */
export const PROVIDER = 'anthropic';
