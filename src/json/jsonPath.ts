/** A location in a JSON value: property names and array indexes, outermost first. */
export type JsonPath = (string | number)[];

/**
 * A path as JavaScript would write it: `messages[1].content[0].input`, with a key that is not
 * an identifier quoted (`card["card number"]`). Empty for the value itself.
 */
export function formatJsonPath(path: JsonPath): string {
  return path
    .map((segment, i) =>
      typeof segment === 'number'
        ? `[${segment}]`
        : /^[A-Za-z_$][\w$]*$/.test(segment)
          ? `${i === 0 ? '' : '.'}${segment}`
          : `[${JSON.stringify(segment)}]`,
    )
    .join('');
}
