import type { ToolUseBlock } from '../messages/types.js';
import { applyOutcomes } from '../guard/applyOutcomes.js';
import type { Block } from '../guard/guardContext.js';
import type { GuardState } from '../guard/guardState.js';
import { decideBatch } from '../guard/pipeline.js';
import type { ToolCall } from './agentResult.js';
import type { EventLog } from './events.js';
import { answered, executeToolCall, type ExecutedToolCall } from './executeToolCall.js';
import type { RunConfig } from './runConfig.js';

/**
 * Answers every tool_use of one response. The guard decides all of them first, in block order,
 * over the state the run had when the response arrived; the allowed calls then run
 * concurrently; the outcomes update the guard state once they are all in.
 */
export async function runTools(config: RunConfig, guard: { state: GuardState }, toolUses: ToolUseBlock[], turn: number, signal: AbortSignal, log: EventLog): Promise<ExecutedToolCall[]> {
  const decisions = decideBatch(toolUses, { state: guard.state, rules: config.rules, tools: config.facts, visible: [...config.visibleTools.keys()] });
  const scope = { agent: config.agent, tools: config.visibleTools, turn, signal, now: config.now, mode: config.mode, stub: config.stub };
  const executed = await Promise.all(
    toolUses.map(async (block, i) => {
      log.emit({ type: 'tool_called', agent: config.agent, turn, id: block.id, name: block.name, input: block.input });
      const decision = decisions[i];
      const result = decision === undefined ? await executeToolCall(block, scope) : answered(blockedCall(block, decision, turn));
      log.emit({ type: 'tool_finished', agent: config.agent, turn, call: result.call });
      return result;
    }),
  );
  guard.state = applyOutcomes(
    guard.state,
    executed.map(({ call }, i) => ({ id: call.id, name: call.name, allowed: decisions[i] === undefined, succeeded: call.outcome === 'ok' })),
    turn,
    config.facts,
    config.rules,
  );
  return executed;
}

function blockedCall(block: ToolUseBlock, decision: Block, turn: number): ToolCall {
  const call: ToolCall = { id: block.id, name: block.name, input: block.input, outcome: 'blocked', output: decision.message, rule: decision.rule, turn };
  if (decision.source !== undefined) call.source = decision.source;
  return call;
}
