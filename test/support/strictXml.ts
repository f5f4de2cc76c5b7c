/** An element of an XML document, as {@link parseStrictXml} reads it. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text, entities decoded (whitespace between child elements included). */
  text: string;
}

/** Characters an XML 1.0 document may hold. */
const XML_CHAR = /^[\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
const NAME = /[A-Za-z_][\w.-]*/y;
const ENTITY: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * A strict reader of the XML subset a JUnit report uses (a declaration, elements, double-quoted
 * attributes, text, the five entities and character references): it throws on anything not
 * well-formed (a character XML 1.0 forbids, a raw `<` or `&` in text or an attribute, a `>` where
 * `]]>` could form, an unclosed or mismatched element, a duplicated attribute, content after the root),
 * and normalises line ends and attribute whitespace as the XML specification says.
 */
export function parseStrictXml(document: string): XmlElement {
  if (!XML_CHAR.test(document)) throw new Error('a character XML 1.0 forbids');
  // As an XML parser does: line ends become \n before anything is read (so a raw \r is lost), and a raw
  // tab or line break in an attribute value becomes a space (so only a reference keeps one).
  const xml = document.replace(/\r\n?/g, '\n');
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`${what} at offset ${at}: ${JSON.stringify(xml.slice(at, at + 30))}`);
  };
  const decode = (raw: string): string => {
    if (/<|\]\]>/.test(raw)) fail('markup in text');
    return raw.replace(/&([^;]*);|&/g, (whole, ref: string | undefined) => {
      if (ref === undefined) return fail('a bare &');
      if (ref in ENTITY) return ENTITY[ref]!;
      const code = /^#x([0-9a-fA-F]+)$/.exec(ref)?.[1] ?? /^#(\d+)$/.exec(ref)?.[1];
      if (code === undefined) return fail(`unknown entity ${whole}`);
      const char = String.fromCodePoint(ref.startsWith('#x') ? Number.parseInt(code, 16) : Number(code));
      if (!XML_CHAR.test(char)) fail('a character reference XML 1.0 forbids');
      return char;
    });
  };
  const name = (): string => {
    NAME.lastIndex = at;
    const match = NAME.exec(xml);
    if (match === null) return fail('a name expected');
    at += match[0].length;
    return match[0];
  };
  const space = () => {
    while (/\s/.test(xml[at] ?? '')) at++;
  };
  const element = (): XmlElement => {
    if (xml[at] !== '<') fail('< expected');
    at++;
    const node: XmlElement = { name: name(), attributes: {}, children: [], text: '' };
    for (;;) {
      space();
      if (xml.startsWith('/>', at)) {
        at += 2;
        return node;
      }
      if (xml[at] === '>') break;
      const attribute = name();
      if (attribute in node.attributes) fail(`attribute ${attribute} twice`);
      if (!xml.startsWith('="', at)) fail('=" expected');
      const end = xml.indexOf('"', at + 2);
      if (end < 0) fail('unclosed attribute');
      const raw = xml.slice(at + 2, end);
      if (raw.includes('<')) fail('< in an attribute');
      node.attributes[attribute] = decode(raw.replace(/[\t\n]/g, ' '));
      at = end + 1;
    }
    at++;
    for (;;) {
      const next = xml.indexOf('<', at);
      if (next < 0) fail(`</${node.name}> expected`);
      node.text += decode(xml.slice(at, next));
      at = next;
      if (xml.startsWith('</', at)) {
        at += 2;
        if (name() !== node.name) fail(`</${node.name}> expected`);
        space();
        if (xml[at] !== '>') fail('> expected');
        at++;
        return node;
      }
      node.children.push(element());
    }
  };
  const declaration = /^<\?xml version="1\.0" encoding="UTF-8"\?>\n/.exec(xml);
  if (declaration === null) fail('the XML declaration expected');
  at = declaration![0].length;
  const root = element();
  space();
  if (at !== xml.length) fail('content after the root element');
  return root;
}
