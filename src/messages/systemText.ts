import type { MessagesRequest } from './types.js';

/** A request's system prompt as text, whether it was sent as a string or as blocks (to carry a cache breakpoint). */
export function systemText(system: MessagesRequest['system']): string | undefined {
  return system === undefined || typeof system === 'string' ? system : system.map((block) => block.text).join('');
}
