import type { AgentEvent } from './agentResult.js';

export type AgentEventListener = (event: AgentEvent) => void;

/**
 * Keeps the run's events and tells the caller's listener as they happen. A listener that
 * throws does not break the run (observing must never change what is observed); it is
 * reported as a process warning instead.
 */
export class EventLog {
  readonly events: AgentEvent[] = [];
  readonly #listener: AgentEventListener | undefined;
  readonly #keepStream: boolean;

  constructor(listener: AgentEventListener | undefined, options: { keepStreamEvents?: boolean } = {}) {
    this.#listener = listener;
    this.#keepStream = options.keepStreamEvents ?? false;
  }

  /** Whether anybody takes stream deltas: a transport is not asked to produce them for nobody. */
  get observesStream(): boolean {
    return this.#listener !== undefined || this.#keepStream;
  }

  emit(event: AgentEvent): void {
    // Stream deltas repeat what the responses hold; they are told, not kept, unless asked.
    if (event.type !== 'stream' || this.#keepStream) this.events.push(event);
    if (this.#listener === undefined) return;
    try {
      this.#listener(event);
    } catch (error) {
      process.emitWarning(`An agent event listener threw on '${event.type}'; the run goes on.`, {
        type: 'LegateWarning',
        code: 'LEGATE_LISTENER_THREW',
        detail: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
  }
}
