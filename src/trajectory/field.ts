import { describeValue } from '../json/describeValue.js';
import { isPlainObject } from '../json/jsonValue.js';

/** A problem at a path of the parsed document; the parser turns the path into a line and column. */
export class FieldError extends Error {
  constructor(
    readonly path: (string | number)[],
    message: string,
  ) {
    super(message);
  }
}

/** A value at a path of the document, with typed accessors that fail with that path. */
export class Field {
  constructor(
    readonly value: unknown,
    readonly path: (string | number)[],
  ) {}

  get(key: string): Field {
    const object = this.object();
    if (!Object.hasOwn(object, key) || object[key] === undefined) {
      throw new FieldError(this.path, `'${key}' is missing${this.path.length === 0 ? '' : ` from ${formatPath(this.path)}`}.`);
    }
    return new Field(object[key], [...this.path, key]);
  }

  optional(key: string): Field | undefined {
    const object = this.object();
    return Object.hasOwn(object, key) && object[key] !== undefined && object[key] !== null ? new Field(object[key], [...this.path, key]) : undefined;
  }

  /**
   * A value whose shape the format does not fix, as the writer wrote it: YAML under `key`, or
   * JSON text under `<key>Json` (for a value too deep for YAML). Undefined when neither is there.
   */
  free(key: string): Field | undefined {
    const object = this.object();
    const jsonKey = `${key}Json`;
    if (!Object.hasOwn(object, jsonKey)) return Object.hasOwn(object, key) ? new Field(object[key], [...this.path, key]) : undefined;
    if (Object.hasOwn(object, key)) throw new FieldError([...this.path, jsonKey], `${formatPath(this.path)} has both '${key}' and '${jsonKey}'; keep one of them.`);
    const text = this.get(jsonKey).string();
    try {
      return new Field(JSON.parse(text), [...this.path, jsonKey]);
    } catch (error) {
      throw new FieldError([...this.path, jsonKey], `${formatPath([...this.path, jsonKey])} should be JSON text, but it is not: ${(error as Error).message}.`);
    }
  }

  object(): Record<string, unknown> {
    if (!isPlainObject(this.value)) this.fail('a mapping');
    return this.value as Record<string, unknown>;
  }

  list(): Field[] {
    if (!Array.isArray(this.value)) this.fail('a list');
    return (this.value as unknown[]).map((item, i) => new Field(item, [...this.path, i]));
  }

  string(): string {
    if (typeof this.value !== 'string') this.fail('a string');
    return this.value as string;
  }

  number(): number {
    if (typeof this.value !== 'number' || !Number.isFinite(this.value)) this.fail('a number');
    return this.value as number;
  }

  integer(): number {
    if (!Number.isSafeInteger(this.value) || (this.value as number) < 0) this.fail('a whole number of at least 0');
    return this.value as number;
  }

  boolean(): boolean {
    if (typeof this.value !== 'boolean') this.fail('true or false');
    return this.value as boolean;
  }

  oneOf<T extends string>(allowed: readonly T[]): T {
    if (!allowed.includes(this.value as T)) this.fail(`one of ${allowed.join(', ')}`);
    return this.value as T;
  }

  fail(expected: string): never {
    throw new FieldError(this.path, `${formatPath(this.path)} should be ${expected}, but it was ${describeValue(this.value)}.`);
  }
}

/** `turns[2].response.usage`: the path as a reader writes it. */
export function formatPath(path: (string | number)[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`)).join('') || 'the document';
}
