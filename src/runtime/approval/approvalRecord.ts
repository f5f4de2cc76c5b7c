/** A person's decision on the calls a run stopped for. */
export interface ApprovalRecord {
  /** The turn whose response held the calls. */
  turn: number;
  /** Each pending call's decision, by tool_use id. */
  decisions: { id: string; tool: string; approve: boolean; reason?: string }[];
}
