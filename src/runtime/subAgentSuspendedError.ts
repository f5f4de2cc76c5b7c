import { LegateError } from '../errors/LegateError.js';

/** A sub-agent stopped for approval inside a tool call: its caller cannot wait for it. */
export class SubAgentSuspendedError extends LegateError {
  readonly code = 'sub_agent_suspended';
  constructor(readonly agent: string) {
    super(
      `Sub-agent '${agent}' stopped to wait for approval; a sub-agent's calls cannot be approved from inside ` +
        `its caller's tool call.`,
    );
  }
}
