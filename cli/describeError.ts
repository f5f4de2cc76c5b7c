import { sep } from 'node:path';
import { ModuleImportError } from '../src/files/ModuleImportError.js';

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

/**
 * One of legate's refusals (a missing file, a config or module that cannot be loaded), for a person
 * at a terminal: its message on one line, with paths under `cwd` shown relative to it. With
 * LEGATE_DEBUG=1, its stack and its cause's (a module's own error, for one that cannot be imported).
 */
export function describeRefusal(error: Error, cwd: string): string {
  if (debugging()) {
    const cause = error.cause instanceof Error ? `\nCaused by: ${error.cause.stack ?? error.cause.message}` : '';
    return `${error.stack ?? error.message}${cause}`;
  }
  const message = oneLine(error.message.replaceAll(`${cwd}${sep}`, ''));
  // A module's own error is the cause: its stack is where to look (unless what it imports is just not there).
  return error instanceof ModuleImportError && error.cause instanceof Error && error.missingImport === undefined
    ? `${message.replace(/\.$/, '')} (set LEGATE_DEBUG=1 for the stack trace).`
    : message;
}
