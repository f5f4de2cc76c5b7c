import type { JsonPath } from '../json/jsonPath.js';
import { jsonText } from '../json/jsonText.js';
import { parsePartialJson } from '../json/partialJson.js';
import type { AgentEvent } from './agentResult.js';

/**
 * A structured output as it is being written: the value the JSON text of the turn's answer so far stands for
 * (see `parsePartialJson`). A progress snapshot, not a checked value: strings may be cut, required properties
 * missing; `result.output` is the checked one.
 */
export interface OutputPartialEvent {
  type: 'output_partial';
  agent: string;
  turn: number;
  partial: unknown;
}

/**
 * Follows a run's events and tells its structured output's progress. Each turn starts afresh: its text blocks'
 * deltas, joined in order as `result.text` joins them, are read as the beginning of a JSON text after each delta,
 * and a partial is told when it shows more than the last one told in that turn. Within a turn each partial is
 * contained in the next; a turn whose text is not JSON (words before a tool call) tells none.
 */
export class OutputProgress {
  readonly #partialStringAt: (path: JsonPath) => boolean;
  #text = '';
  #told: string | undefined;

  /** `partialStringAt`: whether a string still being written at a path may be shown (not under an `enum`). */
  constructor(partialStringAt: (path: JsonPath) => boolean) {
    this.#partialStringAt = partialStringAt;
  }

  /** The partial this event of the run brings, if it brings one. */
  after(event: AgentEvent): OutputPartialEvent | undefined {
    if (event.type === 'turn_started') {
      this.#text = '';
      this.#told = undefined;
    }
    if (event.type !== 'stream' || event.event.type !== 'text_delta') return undefined;
    this.#text += event.event.text;
    const partial = parsePartialJson(this.#text, { partialStringAt: this.#partialStringAt });
    if (partial === undefined) return undefined;
    const shown = jsonText(partial.value);
    if (shown === this.#told) return undefined;
    this.#told = shown;
    return { type: 'output_partial', agent: event.agent, turn: event.turn, partial: partial.value };
  }
}
