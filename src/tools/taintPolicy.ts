/**
 * What happens to a privileged call in a tainted run that provenance does not clear: `block`
 * refuses it (rule `taint`), `approve` holds it for a person (the run suspends, as for
 * `approvalRequired`).
 */
export type TaintPolicy = 'block' | 'approve';

export const TAINT_POLICIES: readonly TaintPolicy[] = ['block', 'approve'];

/**
 * A tool's effective policy on taint, the one place it is resolved: the tool's own `onTaint`,
 * else its agent's, else `block`.
 */
export function effectiveTaintPolicy(tool: TaintPolicy | undefined, agent: TaintPolicy | undefined): TaintPolicy {
  return tool ?? agent ?? 'block';
}
