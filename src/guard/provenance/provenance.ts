import type { Message } from '../../messages/types.js';
import { defaultServerToolUntrusted } from '../../tools/serverTool.js';
import { type ServerResultTrust, UNATTRIBUTED_SOURCE } from '../historyGuardState.js';
import { conversationParts, serverResultUntrusted } from '../conversationParts.js';
import { type FieldStep, parseFieldPath } from '../../json/fieldPath.js';
import { type OutsideText, ProvenanceIndex, type TrustedText } from './provenanceIndex.js';
import { splitOutput, stringsOf, textsOfContent, textsOfServerResult } from './resultStrings.js';

/** What provenance needs to know about a tool, by name. */
export interface ProvenanceTool {
  untrusted: boolean;
  privileged: boolean;
  /**
   * The output field paths outsiders write (see `fieldPath.ts`); [] none, in a JSON output.
   * Undefined: the whole output of an untrusted or privileged tool, none of another tool's.
   */
  outsideAuthored?: readonly string[] | undefined;
}

/** Who wrote what in a conversation: made by {@link provenanceOf}, read by `untracedArgument`. */
export interface Provenance {
  /**
   * Outside-authored text by tool_use id, with the tool (or server tool, or 'unattributed tool
   * result') it came from, in the conversation's order: one entry per result legate cannot wholly
   * vouch for (an untrusted tool's result, error or not; a privileged tool's, or one declaring
   * `outsideAuthored`, when it succeeded; an unattributed result; an untrusted server tool's result).
   * `texts` may be empty (an output whose outside-authored fields are empty). A review reads the
   * entries of its taint sources only.
   */
  readonly outside: ReadonlyMap<string, { tool: string; texts: readonly string[] }>;
  /** The texts indexed for tracing values: internal to the provenance module. */
  readonly index: ProvenanceIndex;
}

/**
 * The provenance of a conversation's text. Trusted: the system prompt; the text of user messages
 * (not their tool results); successful results of known tools that are neither untrusted nor
 * privileged and declare no `outsideAuthored`; the fields of any other tool's JSON output not under
 * its `outsideAuthored` paths (vouched for by the tool's owner; `[]`: every field). A trusted result
 * does not vouch for what its own call's input holds, keys and values at any depth (an echo).
 *
 * Outside-authored (see {@link Provenance.outside}): an untrusted or privileged tool's output (a
 * write tool answers with the stored object, which others wrote into: an event's description, a
 * file), or the fields under its `outsideAuthored` paths when it is JSON of the shape those paths
 * describe (else all of it: text that is not JSON, an output cut by `maxResultLength`); the fields
 * under another tool's declared `outsideAuthored` paths (all of its output when it does not split);
 * any error result of an untrusted tool; a
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
  /** Each trusted result: the texts it vouches for, and its call's input as text (which they do not vouch for). */
  const vouchedResults: { texts: readonly string[]; input: string }[] = [];
  const outsideTexts: OutsideText[] = [];
  const outside = new Map<string, { tool: string; texts: string[] }>();
  const addOutside = (id: string, tool: string, texts: readonly string[]) => {
    const entry = outside.get(id);
    if (entry === undefined) outside.set(id, { tool, texts: [...texts] });
    // One push a text: a result may hold more texts than a call can take arguments.
    else for (const text of texts) entry.texts.push(text);
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
    const tool = sourceOf(part.tool, toolOf);
    if (tool === undefined) {
      addOutside(part.id, UNATTRIBUTED_SOURCE, texts);
      continue;
    }
    if (part.isError) {
      if (tool.untrusted) addOutside(part.id, tool.name, texts);
      continue;
    }
    let vouched = texts;
    if (tool.untrusted || tool.privileged || tool.outsideAuthored !== undefined) {
      // Its outside-authored part is outside; its owner vouches for the rest, if the output splits.
      const split = splitJson(texts, tool.outsideAuthored);
      addOutside(part.id, tool.name, split?.outside ?? texts);
      if (split === undefined) continue;
      vouched = split.vouched;
    }
    vouchedResults.push({ texts: vouched, input: part.inputs.flatMap((input) => stringsOf(input)).join('\n') });
  }
  for (const [call, { texts }] of vouchedResults.entries()) for (const text of texts) trusted.push({ text, call });
  const callInputs = vouchedResults.map(({ input }) => input);
  return { outside, index: new ProvenanceIndex(trusted, callInputs, outsideTexts) };
}

/** The tool a result answers, by name, or undefined when the result has no tool or `toolOf` does not know it. */
function sourceOf(
  name: string | undefined,
  toolOf: (name: string) => ProvenanceTool | undefined,
): (ProvenanceTool & { name: string }) | undefined {
  if (name === undefined) return undefined;
  const tool = toolOf(name);
  return tool === undefined ? undefined : { ...tool, name };
}

/**
 * A tool's output split by its `outsideAuthored` paths, or undefined when it does not split and all
 * of it is outside: no paths declared, a path provenance cannot read, an output in several blocks (or
 * none), text that is not JSON, JSON not of the shape the paths describe.
 */
function splitJson(texts: readonly string[], outsideAuthored: readonly string[] | undefined) {
  if (texts.length !== 1 || outsideAuthored === undefined) return undefined;
  const paths: FieldStep[][] = [];
  for (const path of outsideAuthored) {
    const parsed = parseFieldPath(path);
    if ('problem' in parsed) return undefined;
    paths.push(parsed.steps);
  }
  let output: unknown;
  try {
    output = JSON.parse(texts[0]!);
  } catch {
    return undefined;
  }
  return splitOutput(output, paths);
}
