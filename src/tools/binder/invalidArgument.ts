import { describeValue } from '../../json/describeValue.js';

/** Why the binder refused an input. Stable: tests, assertions and trajectories key on these. */
export type InvalidArgumentCode =
  | 'required'
  | 'invalid_type'
  | 'out_of_range'
  | 'too_long'
  | 'too_short'
  | 'invalid_format'
  | 'not_a_known_value'
  | 'unknown_argument'
  | 'not_parsable'
  /** Arrays and objects nested deeper than the input may go (MAX_INPUT_DEPTH levels). */
  | 'too_deep'
  /** A zod refinement (or another rule of the tool's own) refused the value. */
  | 'failed_rule'
  /** An array with `uniqueItems` holds the same value twice. */
  | 'duplicate_item'
  /** An array with `contains` has too few items of the kind it must contain. */
  | 'missing_item'
  /** A value matched more than one alternative of a `oneOf`, where exactly one must match. */
  | 'ambiguous';

/** A location in the input: property names and array indexes, outermost first. */
export type ArgumentPath = (string | number)[];

/** The caller's copy of a refusal: the same fact the model was told, as data. */
export interface InvalidArgument {
  error: 'invalid_argument';
  tool: string;
  /** The top-level argument at fault; null when the input as a whole was refused. */
  argument: string | null;
  path: ArgumentPath;
  code: InvalidArgumentCode;
  /** Exactly what the model was told. */
  message: string;
}

/**
 * A refusal found while checking a value, before it is tied to a tool. Compiled validators
 * return one instead of throwing, and each enclosing object or array adds its key on the way out.
 */
export class Refusal {
  #path: ArgumentPath = [];
  /** Set when the value matched none of a union's alternatives: which, and which came closest. */
  union?: UnionNote;
  constructor(
    readonly code: InvalidArgumentCode,
    /** What the schema wanted, e.g. `a whole number between 1 and 10`. */
    readonly expected: string,
    /**
     * What arrived, as a phrase: `the value was the string "one"`. A function is called only when
     * the phrase is read, so a union's alternatives that refuse cost no words until one is reported.
     */
    arrived: string | (() => string),
    /** True when `expected` is the message of a rule of the tool's own (a zod refinement). */
    readonly byOwnRule = false,
  ) {
    this.#arrived = arrived;
  }

  #arrived: string | (() => string);

  /** Where the refused value sits, outermost first: the refusal's own array, which only its methods change. */
  get path(): ArgumentPath {
    return this.#path;
  }

  get arrived(): string {
    if (typeof this.#arrived === 'function') this.#arrived = this.#arrived();
    return this.#arrived;
  }

  /** Prefixes the path with an enclosing key. */
  at(key: string | number): this {
    this.#path.unshift(key);
    return this;
  }

  /** Prefixes the path with the location of the value it was found in. */
  under(prefix: ArgumentPath): this {
    this.#path.unshift(...prefix);
    return this;
  }

  /** Sets the whole path at once, where the failure site knows it. */
  withPath(path: ArgumentPath): this {
    // A copy made in one step: no array grown key by key.
    this.#path = [...path];
    return this;
  }
}

interface UnionNote {
  /** The alternatives, as the model reads them: `a string, or an array of strings`. */
  alternatives: string;
  /** The alternative that came closest. */
  closest: string;
  /** How many path entries below the union the refusal sits. */
  below: number;
}

/** The usual "what arrived" phrase: `the value was the string "one"`. */
export function valueArrived(value: unknown): string {
  return `the value was ${describeValue(value)}`;
}

/**
 * Turns a refusal into the message the model reads and the record the caller gets. With
 * `quoteValue: false` the message says what was expected and never what arrived (for a client
 * outside the process, such as an MCP client, whose values legate does not echo): an unknown
 * argument's name is what arrived too, so neither the message nor `argument` names it.
 */
export function toInvalidArgument(tool: string, refusal: Refusal, quoteValue = true): InvalidArgument {
  const sentName = !quoteValue && refusal.code === 'unknown_argument' && refusal.path.length <= 1;
  return {
    error: 'invalid_argument',
    tool,
    argument: typeof refusal.path[0] === 'string' && !sentName ? refusal.path[0] : null,
    path: [...refusal.path],
    code: refusal.code,
    message: messageFor(tool, refusal, quoteValue),
  };
}

function messageFor(tool: string, refusal: Refusal, quoteValue: boolean): string {
  const { code, expected, path } = refusal;
  if (code === 'unknown_argument') {
    // For an unknown argument, `expected` lists the names that are allowed.
    const owner = path.length <= 1 ? `Tool '${tool}'` : `Tool '${tool}' ${describePath(path.slice(0, -1))}`;
    const noun = path.length <= 1 ? 'argument' : 'member';
    if (!quoteValue)
      return `${owner} was sent ${noun === 'argument' ? 'an' : 'a'} ${noun} it does not take; ${expected}.`;
    return `${owner} has no ${noun} '${String(path[path.length - 1])}'; ${expected}.`;
  }
  if (code === 'too_deep') {
    // The path runs as deep as the limit (never empty): the message names the argument and gives the path as text.
    const owner = `Tool '${tool}' ${describePath(path.slice(0, 1))}`;
    // What arrived here is the depth reached, never a value.
    const reached = `${refusal.arrived} at ${pathText(path)}`;
    return `${owner} must be ${expected}, but ${reached}; send the value with less nesting.`;
  }
  // Read only when quoted: the phrase is built lazily and can be the costliest part of a refusal.
  const but = quoteValue ? `, but ${refusal.arrived}` : '';
  const subject = `Tool '${tool}' ${describePath(path)}`;
  const union = unionPhrase(refusal);
  if (code === 'required') return `${subject} is required and must be ${expected}${but}${union}.`;
  if (refusal.byOwnRule)
    return `${subject} was refused: ${expected}${quoteValue ? `; ${refusal.arrived}` : ''}${union}.`;
  if (code === 'ambiguous') return `${subject} must match exactly one of its alternatives (${expected})${but}.`;
  return `${subject} must be ${expected}${but}${union}.`;
}

/** `; argument 'filter' matches none of its alternatives (a string, or an object), and an object came closest`. */
function unionPhrase(refusal: Refusal): string {
  const note = refusal.union;
  if (note === undefined) return '';
  const at = describePath(refusal.path.slice(0, refusal.path.length - note.below));
  return `; ${at} matches none of its alternatives (${note.alternatives}), and ${note.closest} came closest`;
}

/** `argument 'address' member 'zip'`, `argument 'parts' item 2`, or `input` for the whole. */
export function describePath(path: ArgumentPath): string {
  if (path.length === 0) return 'input';
  return path
    .map((key, i) => (typeof key === 'number' ? `item ${key}` : i === 0 ? `argument '${key}'` : `member '${key}'`))
    .join(' ');
}

/** A compact path for a message: `parts[0].items[2]`, `input` for the whole. */
function pathText(path: ArgumentPath): string {
  let text = '';
  for (const key of path) text += typeof key === 'number' ? `[${key}]` : text === '' ? key : `.${key}`;
  return text === '' ? 'input' : text;
}
