/**
 * The class of what a tool threw, as the model (or an MCP client) is told it: the constructor's
 * name, or `a thrown string` for a value that is not an Error. Never the message or the stack,
 * which can hold secrets.
 */
export function errorClassOf(thrown: unknown): string {
  return thrown instanceof Error
    ? thrown.constructor.name || thrown.name
    : `a thrown ${thrown === null ? 'null' : typeof thrown}`;
}

/** What the model is told of a tool that threw: the tool and the error's class only. */
export function toolFailedMessage(tool: string, errorClass: string): string {
  return `Tool '${tool}' failed with ${errorClass}.`;
}
