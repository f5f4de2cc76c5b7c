import type { MessagesRequest, ModelResponse, ToolUseBlock } from '../messages/types.js';
import type { DecidedCall, ReplayReferee, ServedResult } from '../runtime/replayReferee.js';
import type { ServerTool } from '../tools/serverTool.js';
import type { AnyTool } from '../tools/tool.js';
import type { SendOptions, Transport } from '../transport/transport.js';
import { recordedClock } from '../recording/recordedClock.js';
import type { ForkedPart } from './forkedPart.js';
import { ReplayTransport, type ReplayOptions } from './ReplayTransport.js';

/**
 * A fork's model: the first turns of a recording served as a replay serves them (every request compared, a
 * difference a `TrajectoryDivergenceError`), then every request sent to the live transport. Its `referee` is the
 * replay's for the forked turns (decisions compared, tools served or run as `runTools` says, sub-agents' runs served
 * from the recording) and has no say after them: the live turns' tools run. Its `clock` serves the parent's readings
 * until the first live request, then reads the live clock.
 */
export class ForkTransport implements Transport {
  readonly #replay: ReplayTransport;
  readonly #live: Transport;
  readonly #turn: number;
  readonly #parentClock: () => Date;
  /** The ids of the forked turns' calls: a sub-agent's run under one of them is served from the recording. */
  readonly #forkedCalls: ReadonlySet<string>;
  #liveCalls = 0;
  readonly referee: ReplayReferee;

  constructor(part: ForkedPart, live: Transport, options: ReplayOptions) {
    this.#replay = new ReplayTransport(part.served, options);
    this.#live = live;
    this.#turn = part.turn;
    this.#parentClock = recordedClock(part.run);
    this.#forkedCalls = new Set(part.served.turns.flatMap((turn) => (turn.results ?? []).map((result) => result.id)));
    // A call the parent still held for approval when it ended has no result: the fork decides it, and it runs.
    const held = new Set(
      part.served.turns.flatMap((turn) =>
        (turn.results ?? []).filter((r) => r.outcome === 'suspended').map((r) => r.id),
      ),
    );
    this.referee = new ForkReferee(this.#replay.referee, part.turn, held, this.#forkedCalls);
  }

  /** Model calls sent to the live transport so far. */
  get liveCalls(): number {
    return this.#liveCalls;
  }

  /** The calls of the forked turns answered from the recording instead of running their tools. */
  get served(): readonly { id: string; tool: string }[] {
    return this.#replay.served;
  }

  async send(request: MessagesRequest, options?: SendOptions): Promise<ModelResponse> {
    if (this.#replay.calls < this.#turn) return this.#replay.send(request, options);
    this.#liveCalls++;
    return this.#live.send(request, options);
  }

  forToolCall(toolUseId: string): Transport {
    if (this.#forkedCalls.has(toolUseId)) return this.#replay.forToolCall(toolUseId);
    return this.#live.forToolCall?.(toolUseId) ?? this.#live;
  }

  /** The run's clock: the parent's readings, in order, until the first live request; `live` from then on. */
  clock(live: () => Date): () => Date {
    return () => (this.#liveCalls === 0 ? this.#parentClock() : live());
  }

  /**
   * Throws as a replay would unless every forked turn was asked for and no tool's posture changed in them (see
   * ReplayTransport.assertDone).
   */
  assertForked(): void {
    this.#replay.assertDone();
  }
}

/** The replay's say over the forked turns; none over the live ones. */
class ForkReferee implements ReplayReferee {
  constructor(
    private readonly forked: ReplayReferee,
    private readonly turn: number,
    private readonly held: ReadonlySet<string>,
    private readonly forkedCalls: ReadonlySet<string>,
  ) {}

  offered(request: MessagesRequest, tools: readonly (AnyTool | ServerTool)[]): void {
    // The replay compares the posture behind a request for a turn it holds, and ignores one past them.
    this.forked.offered(request, tools);
  }

  checkDecisions(turn: number, calls: readonly DecidedCall[]): void {
    if (turn <= this.turn) this.forked.checkDecisions(turn, calls);
  }

  serve(block: ToolUseBlock, turn: number, tool: AnyTool): ServedResult | undefined {
    return turn <= this.turn && !this.held.has(block.id) ? this.forked.serve(block, turn, tool) : undefined;
  }

  forToolCall(toolUseId: string): ReplayReferee {
    return this.forkedCalls.has(toolUseId) ? this.forked.forToolCall(toolUseId) : LIVE;
  }
}

/** The referee of a live sub-agent's run inside a fork: it lets everything run. */
const LIVE: ReplayReferee = {
  offered: () => undefined,
  checkDecisions: () => undefined,
  serve: () => undefined,
  forToolCall: () => LIVE,
};
