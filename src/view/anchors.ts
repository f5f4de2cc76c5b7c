/**
 * The page's element ids: one per call, per section and per section's heading, unique in the page although call ids
 * repeat across files, conversations and sub-agents' runs, and file names may end as a heading's id does (`x-title`).
 * A call's anchor is `call-<id>` the first time the id occurs in the page, then `call-<id>-2`, ...; characters an id
 * should not hold become `_`.
 */
export class Anchors {
  /** Every anchor given, and for each base the last number tried (so a page of many equal ids stays linear). */
  private readonly used = new Set<string>();
  private readonly next = new Map<string, number>();
  private readonly calls = new Map<object, string>();
  /** The anchors given since {@link takeGiven} last ran. */
  private given: string[] = [];

  /** The anchor of a call (the same object always gets the same one). */
  call(call: { id: string }): string {
    const known = this.calls.get(call);
    if (known !== undefined) return known;
    const anchor = this.unique(`call-${call.id.replace(/[^A-Za-z0-9_-]/g, '_')}`);
    this.calls.set(call, anchor);
    return anchor;
  }

  /**
   * A fresh anchor from a base name: the base, else `<base>-2`, `<base>-3`, ..., the first no other anchor of the
   * page has (a call whose own id is `a-2` must not share the anchor of the second call `a`).
   */
  unique(base: string): string {
    let anchor = base;
    for (let n = this.next.get(base) ?? 1; this.used.has(anchor); ) {
      n += 1;
      anchor = `${base}-${n}`;
      this.next.set(base, n);
    }
    this.used.add(anchor);
    this.given.push(anchor);
    return anchor;
  }

  /**
   * The anchors given since the last call (those of one section), and forgets the calls seen: a section's links stay
   * within it, so a page of any size holds one id per anchor, never the calls themselves.
   */
  takeGiven(): string[] {
    const given = this.given;
    this.given = [];
    this.calls.clear();
    return given;
  }
}
