import { canonicalJson } from '../json/canonicalJson.js';
import type { RecordedTurn } from './types.js';

/**
 * Marks every call whose input a redaction changed (`redactedInput: true` on its result), in the
 * redacted turns and the sub-agent runs under their calls: a replay serves such a call's recorded
 * result, since running the tool with the placeholder would be a different call.
 */
export function markRedactedInputs(original: readonly RecordedTurn[], redacted: RecordedTurn[]): void {
  redacted.forEach((turn, t) => {
    const before = original[t];
    if (before === undefined) return;
    const inputs = new Map<string, unknown>();
    for (const block of before.response.content)
      if ('toolUse' in block) inputs.set(block.toolUse.id, block.toolUse.input);
    const changed = new Set<string>();
    for (const block of turn.response.content) {
      if (!('toolUse' in block) || !inputs.has(block.toolUse.id)) continue;
      if (canonicalJson(inputs.get(block.toolUse.id)) !== canonicalJson(block.toolUse.input))
        changed.add(block.toolUse.id);
    }
    (turn.results ?? []).forEach((result, r) => {
      if (changed.has(result.id)) result.redactedInput = true;
      const sub = before.results?.[r]?.subRun;
      if (sub !== undefined && result.subRun !== undefined) markRedactedInputs(sub.turns, result.subRun.turns);
    });
  });
}

/** The calls marked as having had their input redacted, sub-agents' included, in order. */
export function callsWithRedactedInput(turns: readonly RecordedTurn[]): { id: string; tool: string }[] {
  return turns.flatMap((turn) =>
    (turn.results ?? []).flatMap((result) => [
      ...(result.redactedInput === true ? [{ id: result.id, tool: result.tool }] : []),
      ...(result.subRun === undefined ? [] : callsWithRedactedInput(result.subRun.turns)),
    ]),
  );
}
