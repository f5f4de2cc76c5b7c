/**
 * Text from a trajectory file, safe inside an element or a quoted attribute value: the five characters
 * HTML gives a meaning (`& < > " '`) become character references, so no text can open a tag, close an
 * attribute or start an entity. Every string from a file passes through here before it reaches the page.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => REFERENCES[c]!);
}

const REFERENCES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** An attribute, its value escaped: ` name="value"`; nothing when the value is undefined. */
export function attribute(name: string, value: string | number | undefined): string {
  return value === undefined ? '' : ` ${name}="${escapeHtml(String(value))}"`;
}
