import { TextCorpus } from './textCorpus.js';
import { anySplit, type Needle, needleKey } from './valueMatch.js';

/** A trusted text, and the call whose input it may echo (undefined: the user's or the system prompt's). */
export interface TrustedText {
  text: string;
  call: number | undefined;
}

/** An outside-authored text and the tool (or server tool, or 'unattributed tool result') it came from. */
export interface OutsideText {
  text: string;
  tool: string;
}

/**
 * The texts of a conversation, indexed once (on the first question), to answer where a value
 * occurs: in trusted text (not as an echo of the call that produced it) and in which tools'
 * outside-authored text. Answers are kept, so a value asked about again costs nothing.
 */
export class ProvenanceIndex {
  private readonly trustedCall: (number | undefined)[];
  private readonly outsideTool: string[];
  private readonly answers = new Map<string, boolean>();
  private corpora: { trusted: TextCorpus; inputs: TextCorpus; outside: TextCorpus } | undefined;
  private readonly texts: { trusted: string[]; inputs: readonly string[]; outside: string[] };

  /** `callInputs[i]`: call i's input as text (keys and values), which call i's trusted texts do not vouch for. */
  constructor(trusted: readonly TrustedText[], callInputs: readonly string[], outside: readonly OutsideText[]) {
    this.trustedCall = trusted.map((t) => t.call);
    this.outsideTool = outside.map((t) => t.tool);
    this.texts = { trusted: trusted.map((t) => t.text), inputs: callInputs, outside: outside.map((t) => t.text) };
  }

  private indexed() {
    this.corpora ??= {
      trusted: new TextCorpus(this.texts.trusted),
      inputs: new TextCorpus(this.texts.inputs),
      outside: new TextCorpus(this.texts.outside),
    };
    return this.corpora;
  }

  /** Whether the value occurs in a trusted text that does not merely echo its own call's input. */
  traced(needle: Needle): boolean {
    const key = needleKey(needle);
    const known = this.answers.get(key);
    if (known !== undefined) return known;
    const holders = this.indexed().trusted.textsHolding(needle);
    // The calls whose input holds the value, however it splits it: a tool that re-spaces what it echoes
    // still echoes it. The user's and the system prompt's texts belong to no call.
    const echoes = new Set<number | undefined>(this.indexed().inputs.textsHolding(anySplit(needle)));
    const answer = holders.some((text) => !echoes.has(this.trustedCall[text]));
    this.answers.set(key, answer);
    return answer;
  }

  /**
   * The tools whose outside-authored text holds the value, split there anyhow, each once, in the
   * conversation's order.
   */
  foundIn(needle: Needle): string[] {
    return [
      ...new Set(
        this.indexed()
          .outside.textsHolding(anySplit(needle))
          .map((text) => this.outsideTool[text]!),
      ),
    ];
  }
}
