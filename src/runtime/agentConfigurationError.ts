import { LegateError } from '../errors/LegateError.js';

/** An agent was constructed with options it cannot run with. */
export class AgentConfigurationError extends LegateError {
  readonly code = 'invalid_agent_option';
  constructor(
    /** The option at fault, e.g. `transport`, `tools[2]`. */
    readonly option: string,
    message: string,
  ) {
    super(message);
  }
}
