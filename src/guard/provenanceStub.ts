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
