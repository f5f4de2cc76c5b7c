import type { OpenApiToolInfo, SkippedOperation } from './openApiTools.js';

/** The summary `toText()` returns and `legate openapi` prints. */
export function toText(title: string, tools: readonly OpenApiToolInfo[], skipped: readonly SkippedOperation[]): string {
  const unselected = skipped.filter((s) => s.reason.startsWith('not selected'));
  const problems = skipped.filter((s) => !s.reason.startsWith('not selected'));
  const lines = [`${title}: ${count(tools.length, 'tool')}, ${count(problems.length, 'operation')} skipped`];
  if (unselected.length > 0) lines[0] += `, ${count(unselected.length, 'operation')} not selected`;
  if (tools.length > 0) {
    const nameWidth = Math.max(...tools.map((t) => t.name.length));
    const opWidth = Math.max(...tools.map((t) => t.operation.length));
    lines.push('', 'Tools:');
    for (const tool of tools) {
      const flags = [
        ...(tool.untrusted ? ['untrusted'] : []),
        ...(tool.privileged ? ['privileged'] : []),
        ...(tool.policy === undefined ? [] : [`policy ${tool.policy}`]),
      ];
      lines.push(`  ${tool.name.padEnd(nameWidth)}  ${tool.operation.padEnd(opWidth)}  ${flags.join(', ')}`.trimEnd());
    }
  }
  if (problems.length > 0) {
    lines.push('', 'Skipped:');
    for (const s of problems)
      lines.push(`  ${s.operation}${s.operationId === undefined ? '' : ` (${s.operationId})`}: ${s.reason}`);
  }
  return lines.join('\n');
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
