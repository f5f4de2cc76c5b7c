/** How `toHaveToolSequence` compares the tools called with the names it is given. */
export const SEQUENCE_MODES = ['exact', 'inOrder', 'anyOrder', 'atLeast', 'atMost'] as const;
export type SequenceMode = (typeof SEQUENCE_MODES)[number];

/** Each mode in words, for the failure message ("expected the run to have called ..."). */
export const SEQUENCE_MODE_WORDS: Record<SequenceMode, string> = {
  exact: 'exactly',
  inOrder: 'in this order (others allowed between)',
  anyOrder: 'in any order, and no others',
  atLeast: 'at least',
  atMost: 'only tools from',
};

export function sequenceMatches(actual: readonly string[], expected: readonly string[], mode: SequenceMode): boolean {
  const counts = (list: readonly string[]) =>
    list.reduce((map, name) => map.set(name, (map.get(name) ?? 0) + 1), new Map<string, number>());
  switch (mode) {
    case 'exact':
      return actual.length === expected.length && actual.every((name, i) => name === expected[i]);
    case 'inOrder': {
      let next = 0;
      for (const name of actual) if (name === expected[next]) next++;
      return next === expected.length;
    }
    case 'anyOrder': {
      const a = counts(actual);
      const e = counts(expected);
      return a.size === e.size && [...e].every(([name, n]) => a.get(name) === n);
    }
    case 'atLeast': {
      const a = counts(actual);
      return [...counts(expected)].every(([name, n]) => (a.get(name) ?? 0) >= n);
    }
    case 'atMost':
      return actual.every((name) => expected.includes(name));
  }
}
