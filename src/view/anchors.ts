/**
 * The page's element ids: one per call and per section, unique in the page although call ids repeat
 * across files, conversations and sub-agents' runs. A call's anchor is `call-<id>` the first time the id
 * occurs in the page, then `call-<id>-2`, ...; characters an id should not hold become `_`.
 */
export class Anchors {
  private readonly used = new Map<string, number>();
  private readonly calls = new Map<object, string>();

  /** The anchor of a call (the same object always gets the same one). */
  call(call: { id: string }): string {
    const known = this.calls.get(call);
    if (known !== undefined) return known;
    const anchor = this.unique(`call-${call.id.replace(/[^A-Za-z0-9_-]/g, '_')}`);
    this.calls.set(call, anchor);
    return anchor;
  }

  /** A fresh anchor from a base name. */
  unique(base: string): string {
    const seen = this.used.get(base) ?? 0;
    this.used.set(base, seen + 1);
    return seen === 0 ? base : `${base}-${seen + 1}`;
  }
}
