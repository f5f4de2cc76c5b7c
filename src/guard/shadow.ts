/** How an agent treats tools with real-world effects: run them, or plan them for review. */
export type ExecutionMode = 'live' | 'shadow';

/** In shadow mode a privileged tool is planned, not run. */
export function isPlannedInstead(mode: ExecutionMode, privileged: boolean): boolean {
  return mode === 'shadow' && privileged;
}

export function plannedMessage(tool: string): string {
  return (
    `Tool '${tool}' was not run: this run is in shadow mode, so its effect was planned for review, not carried ` +
    'out. Continue as if it will happen, and say that it is planned.'
  );
}
