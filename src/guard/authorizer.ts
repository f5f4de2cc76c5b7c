/**
 * Decides whether the current principal may use tools gated by a policy. Called once per run
 * for each policy the agent's tools declare.
 */
export type Authorizer = (policy: string) => boolean;

/** An authorizer that grants exactly the listed policies. */
export function policies(...granted: string[]): Authorizer {
  const set = new Set(granted);
  return (policy) => set.has(policy);
}

/**
 * Whether a tool is visible: a tool without a policy always is; a policy-gated tool only when
 * an authorizer grants its policy, so with no authorizer configured it is denied by default.
 */
export function isAuthorized(policy: string | undefined, authorizer: Authorizer | undefined): boolean {
  if (policy === undefined) return true;
  // Stryker disable next-line ConditionalExpression: equivalent, as calling no authorizer throws into the catch below
  if (authorizer === undefined) return false;
  try {
    return authorizer(policy) === true;
  } catch {
    return false; // an authorizer that fails denies: fail closed
  }
}
