import type { CallDecision } from './replayReferee.js';
import type { StreamEvent } from '../transport/transport.js';
import type { StopReason, ToolCall, Usage } from './agentResult.js';

/** What can be observed while a run goes, and what the result keeps in `events`. */
export type AgentEvent =
  | { type: 'run_started'; agent: string }
  | { type: 'turn_started'; agent: string; turn: number }
  | { type: 'stream'; agent: string; turn: number; event: StreamEvent }
  | { type: 'model_responded'; agent: string; turn: number; stopReason: string | null; toolUses: number }
  /**
   * A call taken up, with the decision made for it before anything ran (the one a replay compares): `run`,
   * `invalid` with its code, `blocked` with its rule and source, `planned`, `suspended`, `incomplete`.
   */
  | {
      type: 'tool_called';
      agent: string;
      turn: number;
      id: string;
      name: string;
      input: unknown;
      decision: CallDecision;
    }
  /** A call answered, told in block order once it and every call before it in its response are. */
  | { type: 'tool_finished'; agent: string; turn: number; call: ToolCall }
  | { type: 'handoff'; from: string; to: string; reason?: string; turn: number }
  | { type: 'suspended'; agent: string; turn: number; pending: string[] }
  | { type: 'resumed'; agent: string; turn: number; approved: string[]; denied: string[] }
  /**
   * A recovery of a claimed resume: approved calls answered from the claim's record, run again (idempotent tools), or
   * of unknown outcome.
   */
  | { type: 'recovered'; agent: string; turn: number; reused: string[]; rerun: string[]; unknown: string[] }
  | { type: 'run_finished'; agent: string; stopReason: StopReason; usage: Usage };

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
