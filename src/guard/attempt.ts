/**
 * Whether a call counts as an attempt towards a limit: the guard let it through (`allowed`) to a
 * tool of that name that the agent in charge has (`tools`). What happened next does not matter:
 * a call that succeeded, failed, had its arguments refused, was planned in shadow mode or was
 * refused by a person counts. A call the guard refused does not, nor one of a name the agent in
 * charge has no tool for (refused as an unknown tool, e.g. after a handoff to an agent without
 * it): it reached no tool, so it can have had no effect. The one definition the guard and the
 * fuzzer's limit property both count with.
 */
export function isAttempt(call: { name: string; allowed: boolean }, tools: { has(name: string): boolean }): boolean {
  return call.allowed && tools.has(call.name);
}
