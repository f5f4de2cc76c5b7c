// TEMPORARY: stands in for prov's src/guard/provenance/ until h/prov lands; removed when merged.
/** What is wrong with a field path, or undefined when it is one (keys joined by '.', '[]' = every element). */
export function fieldPathProblem(path: unknown): string | undefined {
  if (typeof path !== 'string' || path === '') return 'a field path is a non-empty string such as recipient or to.iban';
  for (const segment of path.split('.')) {
    if (!/^(?:[^.[\]]+)?(?:\[\])*$/.test(segment) || segment === '')
      return `'${path}' is not a field path: keys joined by '.', '[]' after a key for every element of an array`;
  }
  return undefined;
}

import type { Message } from '../messages/types.js';
import type { ServerResultTrust } from './historyGuardState.js';

export function valuesAt(value: unknown, path: string): { at: string; value: unknown }[] {
  let found: { at: string; value: unknown }[] = [{ at: '', value }];
  for (const segment of path.split('.')) {
    const key = segment.replace(/(\[\])+$/, '');
    const arrays = (segment.length - key.length) / 2;
    const next: { at: string; value: unknown }[] = [];
    for (const f of found) {
      let here: { at: string; value: unknown }[] = [];
      if (key === '') here = [f];
      else if (typeof f.value === 'object' && f.value !== null && Object.hasOwn(f.value, key))
        here = [{ at: f.at === '' ? key : `${f.at}.${key}`, value: (f.value as Record<string, unknown>)[key] }];
      for (let i = 0; i < arrays; i++)
        here = here.flatMap((h) =>
          Array.isArray(h.value) ? h.value.map((v, j) => ({ at: `${h.at}[${j}]`, value: v })) : [],
        );
      next.push(...here);
    }
    found = next;
  }
  return found;
}

export interface ProvenanceTool {
  untrusted: boolean;
  outsideAuthored: readonly string[] | undefined;
}
export interface Provenance {
  readonly outside: ReadonlyMap<string, { tool: string; texts: readonly string[] }>;
  readonly trusted: readonly string[];
}
export interface Untraced {
  argument: string;
  value: string | number;
  foundIn: string[];
}
const norm = (s: string) => s.toLowerCase().replace(/[\s\-_./]/g, '');
const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((b) => (b?.type === 'text' ? String(b.text) : '')).join('\n')
      : '';

export function provenanceOf(
  conversation: { system: string | undefined; messages: readonly Message[] },
  toolOf: (name: string) => ProvenanceTool | undefined,
  serverUntrusted: ServerResultTrust = () => true,
): Provenance {
  const outside = new Map<string, { tool: string; texts: string[] }>();
  const trusted: string[] = conversation.system === undefined ? [] : [conversation.system];
  let uses = new Map<string, { name: string; input: unknown }>();
  for (const message of conversation.messages) {
    if (typeof message.content === 'string') {
      if (message.role === 'user') trusted.push(message.content);
      continue;
    }
    const blocks = message.content as unknown as Record<string, unknown>[];
    if (message.role === 'assistant') {
      uses = new Map();
      for (const b of blocks) {
        if (b.type === 'tool_use') uses.set(b.id as string, { name: b.name as string, input: b.input });
        else if (b.type !== 'tool_result' && String(b.type).endsWith('_tool_result') && serverUntrusted(String(b.type)))
          outside.set(String(b.tool_use_id), { tool: String(b.type), texts: [JSON.stringify(b.content)] });
      }
      continue;
    }
    for (const b of blocks) {
      if (b.type === 'text') trusted.push(String(b.text));
      if (b.type !== 'tool_result') continue;
      const id = b.tool_use_id as string;
      const use = uses.get(id);
      const tool = use === undefined ? undefined : toolOf(use.name);
      const text = textOf(b.content);
      if (use === undefined || tool === undefined) {
        outside.set(id, { tool: 'unattributed tool result', texts: [text] });
        continue;
      }
      if (b.is_error === true) {
        if (tool.untrusted) outside.set(id, { tool: use.name, texts: [text] });
        continue;
      }
      if (!tool.untrusted) {
        const echoed = norm(JSON.stringify(use.input ?? ''));
        trusted.push(`${text}\u0000${echoed}`);
        continue;
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        outside.set(id, { tool: use.name, texts: [text] });
        continue;
      }
      if (tool.outsideAuthored === undefined) {
        outside.set(id, { tool: use.name, texts: [text] });
        continue;
      }
      const authored = tool.outsideAuthored.flatMap((p) => valuesAt(json, p).map((v) => JSON.stringify(v.value)));
      outside.set(id, { tool: use.name, texts: authored });
      let vouched = text;
      for (const a of authored) vouched = vouched.split(a).join('');
      trusted.push(vouched);
    }
    uses = new Map();
  }
  return { outside, trusted };
}

export function untracedArgument(
  input: unknown,
  sensitive: readonly string[],
  provenance: Provenance,
): Untraced | undefined {
  for (const path of sensitive) {
    for (const { at, value } of valuesAt(input, path)) {
      if (typeof value !== 'string' && typeof value !== 'number') continue;
      const wanted = norm(String(value));
      const traced = provenance.trusted.some((t) => {
        const [text, echoed] = t.split('\u0000');
        return norm(text!).includes(wanted) && !(echoed ?? '').includes(wanted);
      });
      if (traced) continue;
      const foundIn = [...provenance.outside.values()]
        .filter((o) => o.texts.some((t) => norm(t).includes(wanted)))
        .map((o) => o.tool);
      return { argument: at, value, foundIn: [...new Set(foundIn)] };
    }
  }
  return undefined;
}
