/** Whether the user asked for stack traces (`LEGATE_DEBUG=1`). */
export function debugging(): boolean {
  return process.env.LEGATE_DEBUG === '1';
}

/**
 * An error nobody expected, said in one line (`TypeError: message`) for a person at a terminal;
 * with LEGATE_DEBUG=1, its stack trace.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return `${typeof error} thrown: ${oneLine(String(error))}`;
  if (debugging() && error.stack !== undefined) return error.stack;
  const message = oneLine(error.message);
  return message.startsWith(`${error.name}:`) ? message : `${error.name}: ${message}`;
}

/** An error that ends a command or a target: {@link describeError}, plus how to see its stack. */
export function describeUnexpected(error: unknown): string {
  return `${describeError(error)}${debugging() ? '' : ' (set LEGATE_DEBUG=1 for the stack trace)'}`;
}

/** Text on one line: line breaks and the space around them become one space. */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
