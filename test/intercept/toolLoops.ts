import type Anthropic from '@anthropic-ai/sdk';

/** What a loop ends with: the final text and every tool call, in order. */
export interface LoopOutcome {
  text: string;
  calls: { name: string; input: unknown }[];
}

export interface LoopSetup {
  client: Anthropic;
  model: string;
  prompt: string;
  tools: Anthropic.Tool[];
  run: (name: string, input: unknown) => string;
}

type Ask = (client: Anthropic, params: Anthropic.MessageCreateParamsNonStreaming) => Promise<Anthropic.Message>;

/** A hand-written tool loop, as people write one over the SDK: ask, run the tool calls, send the results back. */
async function toolLoop(setup: LoopSetup, ask: Ask): Promise<LoopOutcome> {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: setup.prompt }];
  const calls: LoopOutcome['calls'] = [];
  for (;;) {
    const response = await ask(setup.client, { model: setup.model, max_tokens: 1024, tools: setup.tools, messages });
    messages.push({ role: 'assistant', content: response.content });
    const uses = response.content.filter((block) => block.type === 'tool_use');
    if (uses.length === 0) {
      const text = response.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
      return { text, calls };
    }
    for (const use of uses) calls.push({ name: use.name, input: use.input });
    messages.push({
      role: 'user',
      content: uses.map((use) => ({
        type: 'tool_result' as const,
        tool_use_id: use.id,
        content: setup.run(use.name, use.input),
      })),
    });
  }
}

export const createLoop = (setup: LoopSetup) => toolLoop(setup, (client, params) => client.messages.create(params));

export const streamLoop = (setup: LoopSetup) =>
  toolLoop(setup, (client, params) => client.messages.stream(params).finalMessage());
