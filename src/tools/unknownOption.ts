/**
 * What a declaration is told about a key it does not know (a misspelt `priviledged`, an MCP
 * `readOnlyHint`): a misspelt safety option would otherwise be a missing one, silently. Names
 * the key, the nearest known one when there is a plausible one, and every known key.
 */
export function unknownOptionMessage(
  key: string,
  known: readonly string[],
  kind: { one: string; all: string },
): string {
  const near = nearestName(key, known);
  const hint = near === undefined ? '' : ` (did you mean '${near}'?)`;
  return `'${key}' is not ${kind.one}${hint}. The ${kind.all} are ${known.map((k) => `'${k}'`).join(', ')}.`;
}

/** The known name closest to a key: same letters ignoring case, one containing the other, or a few edits away. */
export function nearestName(key: string, known: readonly string[]): string | undefined {
  const plain = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
  const wanted = plain(key);
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const candidate = plain(name);
    const distance =
      candidate === wanted
        ? 0
        : wanted.includes(candidate) || candidate.includes(wanted)
          ? 1
          : editDistance(wanted, candidate);
    if (distance <= Math.max(2, Math.floor(candidate.length / 4)) && (best === undefined || distance < best.distance))
      best = { name, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
