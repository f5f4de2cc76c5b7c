import { unknownToolMessage } from '../../tools/unknownTool.js';
import type { Check } from '../guardContext.js';

/** A tool the principal may not use was never shown; a call to it is answered as to an unknown tool. */
export const authorizationCheck: Check = (call, { tools, visible }) => {
  if (!tools.has(call.name) || visible.includes(call.name)) return undefined;
  return { rule: 'authorization', message: unknownToolMessage(call.name, visible) };
};
