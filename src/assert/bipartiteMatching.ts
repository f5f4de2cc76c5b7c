/**
 * A maximum matching of a bipartite graph, by augmenting paths (Kuhn's algorithm): `edges[left]` lists the right
 * vertices (`0` to `rightCount - 1`) that `left` may be paired with. Returns each left vertex's partner, or
 * `undefined` for one left unpaired; no matching pairs more. Left vertices are taken in order, each trying its edges
 * in the order given, so among the maximum matchings the one returned pairs early vertices with early partners where
 * it can. O(left × edges): the call sequences it pairs are short.
 */
export function maximumMatching(edges: readonly (readonly number[])[], rightCount: number): (number | undefined)[] {
  const leftOf: (number | undefined)[] = Array.from({ length: rightCount }, () => undefined);
  /** Pairs `left` with a free right vertex, or with a taken one whose holder can move elsewhere (recursively). */
  const augment = (left: number, seen: boolean[]): boolean => {
    for (const right of edges[left] ?? []) {
      if (seen[right]) continue;
      seen[right] = true;
      const holder = leftOf[right];
      if (holder === undefined || augment(holder, seen)) {
        leftOf[right] = left;
        return true;
      }
    }
    return false;
  };
  // A vertex with no augmenting path now has none later either (Berge), so one try each gives a maximum matching.
  for (let left = 0; left < edges.length; left++) augment(left, new Array<boolean>(rightCount).fill(false));
  const rightOf: (number | undefined)[] = Array.from({ length: edges.length }, () => undefined);
  leftOf.forEach((left, right) => {
    if (left !== undefined) rightOf[left] = right;
  });
  return rightOf;
}
