import { auditTrajectory, type AuditReport, type Trajectory } from '../src/index.js';
import { auditDeclarations, type AuditFlags, type ResolvedDeclarations } from './auditOptions.js';

/**
 * The audit `legate view` and `legate show` apply to a file recorded at the HTTP boundary, whose tools belong to
 * another framework and carry no postures: by the declarations `legate audit` takes (the config's `audit` section
 * with the flags added to it), resolved at the first such file, once. A file of legate's own is not audited (its
 * tools' postures and its guard's decisions are recorded), nor any file when nothing is declared. Throws what the
 * audit throws for declarations it cannot read (`invalid_audit_declarations`), and a config that cannot be loaded.
 */
export function boundaryAudit(
  flags: AuditFlags,
  cwd: string,
): (trajectory: Trajectory) => Promise<AuditReport | undefined> {
  let resolved: Promise<ResolvedDeclarations> | undefined;
  return async (trajectory) => {
    if (trajectory.boundary !== 'http') return undefined;
    resolved ??= auditDeclarations(flags, cwd);
    const { declarations, declared } = await resolved;
    return declared ? auditTrajectory(trajectory, declarations) : undefined;
  };
}
