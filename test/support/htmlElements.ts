/**
 * A small HTML tokenizer for tests (no DOM in node): the page's elements in document order, each with its
 * attributes (character references decoded) and the text inside it. It follows the HTML rules a page of
 * escaped text relies on: a tag starts only at `<` followed by a letter, `/`, `!`; attribute values are
 * quoted or bare; `script` and `style` hold raw text up to their end tag.
 */
export interface Element {
  name: string;
  attributes: Record<string, string>;
  /** Where its start tag begins and its end tag ends (the whole document for a void or unclosed one). */
  start: number;
  end: number;
  /** Its text content, character references decoded, tags removed. */
  text: string;
}

const VOID = new Set(['meta', 'input', 'br', 'img', 'link', 'hr', 'col', 'source', 'wbr', 'area', 'base', 'embed']);
const RAW = new Set(['script', 'style']);

export function elementsOf(html: string): Element[] {
  const elements: Element[] = [];
  const open: Element[] = [];
  const texts: { from: number; to: number }[] = [];
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt === -1) break;
    if (html.startsWith('<!--', lt)) {
      i = html.indexOf('-->', lt) + 3;
      continue;
    }
    if (html.startsWith('<!', lt)) {
      i = html.indexOf('>', lt) + 1;
      continue;
    }
    const end = /^<\/([a-zA-Z][a-zA-Z0-9-]*)\s*>/.exec(html.slice(lt));
    if (end !== null) {
      const name = end[1]!.toLowerCase();
      const at = open.map((e) => e.name).lastIndexOf(name);
      if (at === -1) throw new Error(`an end tag </${name}> at ${lt} closes no open element`);
      for (const element of open.splice(at)) element.end = lt + end[0].length;
      i = lt + end[0].length;
      continue;
    }
    const tag =
      /^<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/.exec(
        html.slice(lt),
      );
    if (tag === null) {
      i = lt + 1; // a `<` that starts no tag is text
      continue;
    }
    const name = tag[1]!.toLowerCase();
    const attributes: Record<string, string> = {};
    for (const a of tag[2]!.matchAll(/([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g))
      attributes[a[1]!.toLowerCase()] = decode(a[2] ?? a[3] ?? a[4] ?? '');
    const element: Element = { name, attributes, start: lt, end: html.length, text: '' };
    elements.push(element);
    i = lt + tag[0].length;
    if (VOID.has(name)) {
      element.end = i;
      continue;
    }
    if (RAW.has(name)) {
      const close = html.toLowerCase().indexOf(`</${name}`, i);
      if (close === -1) throw new Error(`<${name}> at ${lt} is never closed`);
      texts.push({ from: i, to: close });
      const closeEnd = html.indexOf('>', close) + 1;
      element.end = closeEnd;
      i = closeEnd;
      continue;
    }
    open.push(element);
  }
  for (const element of elements) element.text = textWithin(html, element);
  return elements;
}

function textWithin(html: string, element: Element): string {
  const inner = html.slice(element.start, element.end);
  return decode(inner.replace(/<[^>]*>/g, ''));
}

/** The character references an escaped page uses, decoded. */
export function decode(text: string): string {
  return text.replace(/&(#\d+|#x[0-9a-f]+|amp|lt|gt|quot|apos);/gi, (_, ref: string) => {
    const lower = ref.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(Number(lower.slice(1)));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[lower]!;
  });
}

/** The elements matching a name and attribute values (`undefined` value: the attribute is present). */
export function select(
  elements: readonly Element[],
  name: string,
  attributes: Record<string, string | undefined> = {},
): Element[] {
  return elements.filter(
    (e) =>
      (name === '*' || e.name === name) &&
      Object.entries(attributes).every(([key, value]) =>
        value === undefined
          ? key in e.attributes
          : key === 'class'
            ? (e.attributes.class ?? '').split(/\s+/).includes(value)
            : e.attributes[key] === value,
      ),
  );
}

/** The elements inside another. */
export function inside(elements: readonly Element[], outer: Element): Element[] {
  return elements.filter((e) => e !== outer && e.start > outer.start && e.end <= outer.end);
}
