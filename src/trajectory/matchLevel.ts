/**
 * How closely a live request must match the recording:
 * - `exact`: model, parameters, system, tools offered and the whole conversation so far,
 *   tool result contents included;
 * - `structure`: roles, block types, tool names and ids;
 * - `shape`: model, message count and the names of the tools offered.
 *
 * The one list of levels: the type, the file format's `match:` field, the `--match` flag and
 * their messages all derive from it.
 */
export const MATCH_LEVELS = ['exact', 'structure', 'shape'] as const;

export type MatchLevel = (typeof MATCH_LEVELS)[number];

/** The level a replay uses when no flag, option, config or file sets one. */
export const DEFAULT_MATCH_LEVEL: MatchLevel = 'exact';

/** True for one of {@link MATCH_LEVELS}. */
export function isMatchLevel(value: unknown): value is MatchLevel {
  return (MATCH_LEVELS as readonly unknown[]).includes(value);
}
