import type { Message } from '../../messages/types.js';
import { defaultServerToolUntrusted } from '../../tools/serverTool.js';
import { type ServerResultTrust, UNATTRIBUTED_SOURCE } from '../historyGuardState.js';
import { conversationParts, serverResultUntrusted } from '../conversationParts.js';
import { type FieldStep, parseFieldPath } from './fieldPath.js';
import { type OutsideText, ProvenanceIndex, type TrustedText } from './provenanceIndex.js';
import { splitOutput, stringsOf, textsOfContent, textsOfServerResult } from './resultText.js';

/** What provenance needs to know about a tool, by name. */
export interface ProvenanceTool {
  untrusted: boolean;
  /** The output field paths outsiders write (see `fieldPath.ts`); undefined: the whole output. */
  outsideAuthored: readonly string[] | undefined;
}

/** Who wrote what in a conversation: made by {@link provenanceOf}, read by `untracedArgument`. */
export interface Provenance {
  /**
   * Outside-authored text by tool_use id, with the tool (or server tool, or 'unattributed tool
   * result') it came from, in the conversation's order: one entry per result legate cannot vouch for
   * (an untrusted tool's result, error or not; an unattributed result; an untrusted server tool's
   * result). `texts` may be empty (an untrusted tool's output whose outside-authored fields are empty).
   */
  readonly outside: ReadonlyMap<string, { tool: string; texts: readonly string[] }>;
  /** The texts indexed for tracing values: internal to the provenance module. */
  readonly index: ProvenanceIndex;
}

/**
 * The provenance of a conversation's text. Trusted: the system prompt; the text of user messages
 * (not their tool results); successful results of known tools that are not untrusted; the fields of
 * an untrusted tool's JSON output not under its `outsideAuthored` paths (vouched for by the tool's
 * owner). A trusted result does not vouch for what its own call's input holds, keys and values at any
 * depth (an echo).
 *
 * Outside-authored (see {@link Provenance.outside}): an untrusted tool's output, or the fields under
 * its `outsideAuthored` paths when it is JSON of the shape those paths describe (else all of it: text
 * that is not JSON, an output cut by `maxResultLength`); any error result of an untrusted tool; a
 * result that cannot be attributed (pairing as `guardStateOfHistory` does), or whose tool `toolOf`
 * does not know; a server tool's result when `serverUntrusted` says so (by default every server tool
 * but tool search).
 *
 * Neither: assistant text (the model may copy an injected value), an error result of a trusted
 * tool (legate's refusals echo argument values), a trusted server tool's result.
 */
export function provenanceOf(
  conversation: { system: string | undefined; messages: readonly Message[] },
  toolOf: (name: string) => ProvenanceTool | undefined,
  serverUntrusted: ServerResultTrust = defaultServerToolUntrusted,
): Provenance {
  const trusted: TrustedText[] = [];
  const callInputs: string[] = [];
  const outsideTexts: OutsideText[] = [];
  const outside = new Map<string, { tool: string; texts: string[] }>();
  const addOutside = (id: string, tool: string, texts: readonly string[]) => {
    const entry = outside.get(id);
    if (entry === undefined) outside.set(id, { tool, texts: [...texts] });
    else entry.texts.push(...texts);
    for (const text of texts) outsideTexts.push({ text, tool });
  };
  if (conversation.system !== undefined) trusted.push({ text: conversation.system, call: undefined });
  for (const part of conversationParts(conversation.messages)) {
    if (part.kind === 'call') continue;
    if (part.kind === 'user text') {
      trusted.push({ text: part.text, call: undefined });
      continue;
    }
    if (part.kind === 'server result') {
      if (serverResultUntrusted(part, serverUntrusted))
        addOutside(part.id, part.tool, textsOfServerResult(part.content));
      continue;
    }
    const texts = textsOfContent(part.content);
    const tool = part.tool === undefined ? undefined : toolOf(part.tool);
    if (part.tool === undefined || tool === undefined) {
      addOutside(part.id, UNATTRIBUTED_SOURCE, texts);
      continue;
    }
    if (part.isError) {
      if (tool.untrusted) addOutside(part.id, part.tool, texts);
      continue;
    }
    const vouched = tool.untrusted ? vouchedPart(part.id, part.tool, texts, tool.outsideAuthored, addOutside) : texts;
    if (vouched.length === 0) continue;
    const call = callInputs.push(part.inputs.flatMap((input) => stringsOf(input)).join('\n')) - 1;
    for (const text of vouched) trusted.push({ text, call });
  }
  return { outside, index: new ProvenanceIndex(trusted, callInputs, outsideTexts) };
}

/**
 * An untrusted tool's output: its outside-authored part goes to `addOutside`; the part its owner
 * vouches for is returned (nothing, unless `outsideAuthored` is declared and the output is JSON of
 * the shape its paths describe).
 */
function vouchedPart(
  id: string,
  tool: string,
  texts: string[],
  outsideAuthored: readonly string[] | undefined,
  addOutside: (id: string, tool: string, texts: readonly string[]) => void,
): string[] {
  const split = texts.length === 1 && outsideAuthored !== undefined ? splitJson(texts[0]!, outsideAuthored) : undefined;
  if (split === undefined) {
    addOutside(id, tool, texts);
    return [];
  }
  addOutside(id, tool, split.outside);
  return split.vouched;
}

function splitJson(text: string, outsideAuthored: readonly string[]) {
  const paths: FieldStep[][] = [];
  for (const path of outsideAuthored) {
    const parsed = parseFieldPath(path);
    if ('problem' in parsed) return undefined;
    paths.push(parsed.steps);
  }
  let output: unknown;
  try {
    output = JSON.parse(text);
  } catch {
    return undefined;
  }
  return splitOutput(output, paths);
}
