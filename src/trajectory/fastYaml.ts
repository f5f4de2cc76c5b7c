import { createRequire } from 'node:module';
import type * as JsYaml from 'js-yaml';
import type { Event, Schema } from 'js-yaml';
import { MAX_DOCUMENT_DEPTH } from './limits.js';

/** What the fast reader made of a text: its value, a refusal at an offset, or undefined (read it carefully). */
export type PlainYaml = { value: unknown } | { refused: { offset: number; problem: string } } | undefined;

/** Thrown while constructing when a scalar is a number no JSON value can hold; the careful reader locates it. */
class NonFiniteNumber extends Error {}

let loaded: { jsYaml: typeof JsYaml; schema: Schema } | undefined;

/**
 * js-yaml and the schema this reader reads with, made the first time a file needs this reader and kept: a file as
 * legate writes it is read without it (readWrittenYaml), and importing legate does not load it. It is required
 * (js-yaml ships CommonJS beside its ES module): nothing of it leaves this file.
 */
function reader(): { jsYaml: typeof JsYaml; schema: Schema } {
  if (loaded !== undefined) return loaded;
  const jsYaml = createRequire(import.meta.url)('js-yaml') as typeof JsYaml;
  const { CORE_SCHEMA, NOT_RESOLVED, defineScalarTag, floatCoreTag, intCoreTag } = jsYaml;
  const finite = (tag: typeof intCoreTag | typeof floatCoreTag, pattern: RegExp) =>
    defineScalarTag(tag.tagName, { ...tag, resolve: finiteOnly(tag.resolve, pattern, NOT_RESOLVED) });
  /**
   * The YAML 1.2 core schema, except that a number that is not finite (`.inf`, `.nan`, `1e400`)
   * is neither a number nor a string here: a JSON value cannot be one, and js-yaml would read
   * `1e400` as a string where the `yaml` library reads Infinity. Both readers refuse it instead.
   */
  const schema = CORE_SCHEMA.withTags(
    finite(intCoreTag, /^(?:0o[0-7]+|0x[0-9a-fA-F]+|[-+]?[0-9]+)$/),
    finite(floatCoreTag, /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/),
  );
  loaded = { jsYaml, schema };
  return loaded;
}

function finiteOnly<T, NotResolved>(
  resolve: (source: string, isExplicit: boolean, tagName: string) => T | NotResolved,
  pattern: RegExp,
  notResolved: NotResolved,
) {
  return (source: string, isExplicit: boolean, tagName: string): T | NotResolved => {
    const value = resolve(source, isExplicit, tagName);
    // js-yaml gives up on a number too large for a double (the text stays a string); the core schema says it is a
    // number.
    if (value === notResolved ? pattern.test(source) : typeof value === 'number' && !Number.isFinite(value))
      throw new NonFiniteNumber();
    return value;
  };
}

/**
 * The fast path for reading a trajectory: js-yaml's event parser, about four times faster
 * than the `yaml` library, which stays the writer and the reader that locates errors.
 * Anchors, aliases and explicit tags are refused here, from the events, with their offset,
 * so a large file holding one never reaches the slower reader. Returns undefined whenever
 * the text needs that careful path: a syntax error, more than one document, a duplicate key,
 * a number that is not finite. Both read the YAML 1.2 core schema; a property test holds them
 * to the same values on everything the writer produces.
 */
export function readPlainYaml(text: string): PlainYaml {
  const { jsYaml, schema } = reader();
  const { EVENT_ID } = jsYaml;
  let events: Event[];
  try {
    events = jsYaml.parseEvents(text, { maxDepth: MAX_DOCUMENT_DEPTH });
  } catch (error) {
    // Too deep for the careful reader too (its parser recurses): refused here, where it goes too deep.
    const { reason, mark } = error as { reason?: string; mark?: { position?: number } };
    if (reason?.startsWith('nesting exceeded maxDepth') && mark?.position !== undefined)
      return { refused: { offset: mark.position, problem: depthProblem } };
    return undefined;
  }
  let documents = 0;
  for (const event of events) {
    if (event.type === EVENT_ID.DOCUMENT) documents++;
    else if (event.type === EVENT_ID.ALIAS) return refuseAlias(text, event.anchorStart, event.anchorEnd);
    else if ('anchorStart' in event && event.tagStart >= 0) return refuseTag(text, event.tagStart, event.tagEnd);
    else if ('anchorStart' in event && event.anchorStart >= 0)
      return refuseAnchor(text, event.anchorStart, event.anchorEnd);
  }
  if (documents !== 1) return undefined;
  try {
    const [value] = jsYaml.constructFromEvents(events, { source: text, schema });
    return { value };
  } catch {
    return undefined;
  }
}

// js-yaml's offsets for an alias and an anchor may or may not include the `*` or `&`; the message names it either way.
function refuseAlias(text: string, start: number, end: number): PlainYaml {
  const name = text.slice(start, end).replace(/^\*/, '');
  return { refused: { offset: text[start] === '*' ? start : start - 1, problem: aliasProblem(name) } };
}

function refuseAnchor(text: string, start: number, end: number): PlainYaml {
  const name = text.slice(start, end).replace(/^&/, '');
  return { refused: { offset: text[start] === '&' ? start : start - 1, problem: anchorProblem(name) } };
}

function refuseTag(text: string, start: number, end: number): PlainYaml {
  return { refused: { offset: start, problem: tagProblem(text.slice(start, end)) } };
}

const depthProblem =
  `the YAML nests deeper than the ${MAX_DOCUMENT_DEPTH} levels a trajectory may hold. legate writes a value ` +
  `deeper than that as JSON text (\`inputJson\`); do the same.`;

/** The words for a refused alias, anchor or tag: one home, used by both readers. */
export const aliasProblem = (name: string) =>
  `YAML aliases (*${name}) are not allowed in a trajectory; write the value out.`;
export const anchorProblem = (name: string) =>
  `YAML anchors (&${name}) are not allowed in a trajectory; it holds plain data only, with no aliases to refer ` +
  'to them.';
export const tagProblem = (tag: string) =>
  `YAML tags (${tag}) are not allowed in a trajectory; it holds plain data only.`;
