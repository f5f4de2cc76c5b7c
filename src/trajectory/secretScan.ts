/** Patterns that mean a credential reached a recording. */
export const BUILT_IN_SECRET_PATTERNS: readonly RegExp[] = [/sk-ant-[A-Za-z0-9_-]{4,}/, /Bearer [A-Za-z0-9._~+/=-]{8,}/];

export interface SecretFinding {
  line: number;
  column: number;
  /** The pattern that matched, as written. */
  pattern: string;
  /** The match with all but its first characters masked, safe to print. */
  masked: string;
}

/** Finds the first secret in a text: built-in patterns, then declared ones. */
export function findSecret(text: string, declared: readonly (RegExp | string)[] = []): SecretFinding | undefined {
  for (const source of [...BUILT_IN_SECRET_PATTERNS, ...declared]) {
    const pattern = typeof source === 'string' ? new RegExp(source) : new RegExp(source.source, source.flags.replace('g', ''));
    const match = pattern.exec(text);
    if (match === null) continue;
    const before = text.slice(0, match.index);
    const line = before.split('\n').length;
    const column = match.index - before.lastIndexOf('\n');
    return { line, column, pattern: pattern.source, masked: `${match[0].slice(0, 7)}…` };
  }
  return undefined;
}

/** Refusing to save a recording that still holds a secret. */
export class SecretInTrajectoryError extends Error {
  override name = 'SecretInTrajectoryError';
  constructor(
    readonly file: string,
    readonly finding: SecretFinding,
  ) {
    super(
      `${file}:${finding.line}:${finding.column}: the recording holds a secret (${finding.masked}, matching /${finding.pattern}/), so it was not saved. ` +
        'Declare a redaction for it (a pattern or a key path), then record again.',
    );
  }
}
