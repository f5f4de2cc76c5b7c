/** One transfer of the conversation from one agent to another. */
export interface Handoff {
  from: string;
  to: string;
  /** The reason the model gave, if any. */
  reason?: string;
  /** The tool_use id of the transfer call. */
  id: string;
  /** The turn whose response asked for it. */
  turn: number;
}

/** `handoff_to_billing` for a target named `billing` (or `Billing Team`). */
export function handoffToolName(target: string): string {
  const snake = target
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  return `handoff_to_${snake}`;
}

export const DEFAULT_MAX_HANDOFFS = 3;

export function transferredMessage(to: string): string {
  return `The conversation is now with '${to}', who will continue from here.`;
}

export function transferRefusedMessage(to: string, max: number): string {
  const transfers = max === 1 ? 'transfer' : 'transfers';
  return (
    `The transfer to '${to}' was not made: this conversation has reached its limit of ${max} ${transfers}. ` +
    'Answer the user yourself.'
  );
}
