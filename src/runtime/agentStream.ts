import { LegateError } from '../errors/LegateError.js';
import type { JsonPath } from '../json/jsonPath.js';
import { UsageError } from '../errors/UsageError.js';
import type { AgentResult } from './agentResult.js';
import type { RunOptions } from './runOptions.js';
import type { AgentEvent } from './agentResult.js';
import { OutputProgress, type OutputPartialEvent } from './outputProgress.js';

/**
 * What `agent.stream()` yields: each event of the run's log as it happens (the same events `onEvent` is told, stream
 * deltas included); with an `output` schema, an `output_partial` after each delta that advanced the structured
 * answer; and last the run's result.
 */
export type AgentStreamEvent<R extends AgentResult = AgentResult> =
  | AgentEvent
  | OutputPartialEvent
  | { type: 'result'; result: R };

/** A run in progress, read as it goes. */
export interface AgentStream<R extends AgentResult = AgentResult> extends AsyncIterable<AgentStreamEvent<R>> {
  /**
   * The run's result, as `agent.run` would resolve it. Rejects with the run's error, or with a `StreamAbandonedError`
   * when the iteration was left before the run ended. It can be awaited without reading the events.
   */
  readonly result: Promise<R>;
}

/** The reader of `agent.stream()` left its loop before the run ended (`break`, `return`, a throw): run cancelled. */
export class StreamAbandonedError extends LegateError {
  readonly code = 'stream_abandoned';
  constructor() {
    super(
      'The run was cancelled: the reader of its stream left the loop before the run ended (a break, a return or a ' +
        'throw in the for-await loop). To stop reading and let the run finish, await `stream.result` instead.',
    );
  }
}

/**
 * Starts a run at once and reads it as a stream. Every event is queued until it is read, so a slow reader misses
 * none and the run never waits for it; an iteration left early cancels the run through its signal and waits for it
 * to stop; the run's failure is thrown by the iterator after the events before it.
 */
export function streamRun(
  run: (
    options: RunOptions,
    followOutput: (partialStringAt: (path: JsonPath) => boolean) => void,
  ) => Promise<AgentResult>,
  options: RunOptions,
): AgentStream {
  let progress: OutputProgress | undefined;
  const stop = new AbortController();
  const signal = options.signal === undefined ? stop.signal : AbortSignal.any([options.signal, stop.signal]);
  const queue = new EventQueue();
  const result = run(
    {
      ...options,
      signal,
      onEvent: (event) => {
        queue.push(event);
        const partial = progress?.after(event);
        if (partial !== undefined) queue.push(partial);
        options.onEvent?.(event);
      },
    },
    (partialStringAt) => {
      progress = new OutputProgress(partialStringAt);
    },
  );
  result.then(
    (value) => queue.end({ type: 'result', result: value }),
    (error: unknown) => queue.fail(error),
  );
  let read = false;
  return {
    result,
    [Symbol.asyncIterator]: () => {
      if (read)
        throw new UsageError(
          'stream_read_twice',
          'An agent stream is read once, and this one was already iterated. Keep the events you need as you read ' +
            "them, or await 'stream.result'.",
        );
      read = true;
      return {
        next: () => queue.next(),
        return: async () => {
          if (!queue.ended) {
            stop.abort(new StreamAbandonedError());
            await result.catch(() => undefined);
          }
          queue.close();
          return { done: true, value: undefined };
        },
      };
    },
  };
}

/** Events waiting to be read, in order; then the end of the run: a last event, or a failure to throw. */
class EventQueue {
  #events: AgentStreamEvent[] = [];
  #head = 0;
  #failure: { error: unknown } | undefined;
  #ended = false;
  /** Readers waiting for an event: a for-await loop is one, but `next()` may be called again before it settles. */
  #waiting: (() => void)[] = [];

  get ended(): boolean {
    return this.#ended;
  }

  push(event: AgentStreamEvent): void {
    if (this.#ended) return;
    this.#events.push(event);
    this.#wakeReader();
  }

  end(last: AgentStreamEvent): void {
    this.push(last);
    this.#ended = true;
  }

  fail(error: unknown): void {
    this.#failure = { error };
    this.#ended = true;
    this.#wakeReader();
  }

  /** Nothing more is read: a reader that left. */
  close(): void {
    this.#ended = true;
    this.#events = [];
    this.#head = 0;
    this.#failure = undefined;
  }

  async next(): Promise<IteratorResult<AgentStreamEvent, undefined>> {
    for (;;) {
      if (this.#head < this.#events.length) {
        const event = this.#events[this.#head++]!;
        // Drop what was read once it is most of the queue, so a long run held by a slow reader stays linear.
        if (this.#head > 1024 && this.#head * 2 > this.#events.length) {
          this.#events = this.#events.slice(this.#head);
          this.#head = 0;
        }
        return { done: false, value: event };
      }
      if (this.#failure !== undefined) {
        const { error } = this.#failure;
        this.#failure = undefined;
        throw error;
      }
      if (this.#ended) return { done: true, value: undefined };
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
  }

  #wakeReader(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const wake of waiting) wake();
  }
}
