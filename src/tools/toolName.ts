import { describeValue } from '../json/describeValue.js';
import { ToolDeclarationError } from './declarationError.js';

/** The Messages API's rule for a tool name. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,128}$/;

export function checkToolName(name: unknown): string {
  if (typeof name === 'string' && TOOL_NAME_PATTERN.test(name)) return name;
  const shown = typeof name === 'string' ? name : String(name);
  throw new ToolDeclarationError(
    'invalid_tool_name',
    shown,
    'name',
    `A tool needs a name of 1 to 128 letters, digits, '_' or '-' (the API's rule for tool names), ` +
      `but the name was ${describeValue(name)}. Name it for what it does, e.g. 'get_weather'.`,
  );
}
