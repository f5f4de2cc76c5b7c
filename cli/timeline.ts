import type { AgentResult, ResponseBlock, ToolCall } from '../src/index.js';

type Paint = (style: 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan', text: string) => string;

const PREVIEW = 120;

/** A run as a readable timeline: each turn's text, each tool call with its outcome, then totals. */
export function renderTimeline(result: AgentResult, input: string, paint: Paint): string {
  const lines: string[] = [];
  const gutter = (label: string) => label.padEnd(10);
  lines.push(`${paint('bold', result.agent)} ${paint('dim', `· ${result.responses[0]?.model ?? 'no model call'}`)}`);
  lines.push(`${paint('dim', gutter('user'))}${preview(input)}`);
  result.responses.forEach((response, i) => {
    const turn = i + 1;
    let label = gutter(`turn ${turn}`);
    for (const block of response.content) {
      const text = describeBlock(block);
      if (text === undefined) continue;
      lines.push(`${paint('cyan', label)}${text}`);
      label = gutter('');
      if (block.type === 'tool_use') {
        const call = result.toolCalls.find((c) => c.id === block.id);
        if (call !== undefined) lines.push(`${label}${describeOutcome(call, paint)}`);
      }
    }
  });
  const { usage } = result;
  lines.push(
    paint('dim', `${result.stopReason} · ${result.turns} turn${result.turns === 1 ? '' : 's'} · ${usage.inputTokens} input / ${usage.outputTokens} output tokens`),
  );
  return lines.join('\n');
}

function describeBlock(block: ResponseBlock): string | undefined {
  switch (block.type) {
    case 'text':
      return block.text === '' ? undefined : `assistant: ${preview(block.text)}`;
    case 'thinking':
      return `thinking: ${preview(block.thinking)}`;
    case 'tool_use':
      return `→ ${block.name} ${preview(JSON.stringify(block.input) ?? 'undefined')}`;
    default:
      return `[${block.type}]`;
  }
}

function describeOutcome(call: ToolCall, paint: Paint): string {
  const output = typeof call.output === 'string' ? call.output : JSON.stringify(call.output);
  if (call.outcome === 'ok') return `${paint('green', '✓ ok')}: ${preview(output)}`;
  const code = call.error !== undefined && 'code' in call.error ? ` ${call.error.code}` : '';
  return `${paint('red', `✗ ${call.outcome}${code}`)}: ${preview(output)}`;
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= PREVIEW ? flat : `${flat.slice(0, PREVIEW)}…`;
}
