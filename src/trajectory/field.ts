/** A problem at a path of the parsed document; the parser turns the path into a line and column. */
export class FieldError extends Error {
  constructor(
    readonly path: (string | number)[],
    message: string,
  ) {
    super(message);
  }
}

/** `turns[2].response.usage`: the path as a reader writes it. */
export function formatPath(path: (string | number)[]): string {
  return (
    path.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`)).join('') || 'the document'
  );
}
