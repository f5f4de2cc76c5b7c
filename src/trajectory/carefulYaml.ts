import type YAML from 'yaml';
import { TrajectoryFormatError } from './errors.js';
import { FieldError } from './field.js';
import { readTrajectory } from './readTrajectory.js';
import type { Trajectory } from './types.js';
import { yamlLibrary } from './yamlLibrary.js';
import { plainTokens } from './yamlTokens.js';

const PARSE_OPTIONS = {
  schema: 'core',
  merge: false, // `<<` is a plain key, never a merge
  // The library's own check compares each key with every other (quadratic in a wide mapping);
  // duplicates are found below, with a set per mapping.
  uniqueKeys: false,
  strict: true,
} as const;

type Locate = (offset: number | undefined, problem: string, path?: string) => TrajectoryFormatError;

/**
 * The reader of any YAML: the `yaml` library, which knows where in the file each node is. It reads
 * what the writer's reader declines, and turns every problem into a {@link TrajectoryFormatError}
 * with file:line:column. Its cost is linear in the file: one parse, one composition, one walk.
 */
export function parseCarefully(text: string, file: string): Trajectory {
  const { document, at } = plainDocument(text, file);
  try {
    return readTrajectory(document.toJS({ maxAliasCount: 0 }));
  } catch (caught) {
    if (!(caught instanceof FieldError)) throw caught;
    const YAML = yamlLibrary();
    const node = document.getIn(caught.path, true) as YAML.Node | undefined;
    const offset = YAML.isNode(node) ? node.range?.[0] : nearestRange(document, caught.path);
    throw at(offset, caught.message, caught.path.join('.'));
  }
}

/**
 * The value of a YAML text as the careful reader reads it, before the trajectory format is
 * checked: the reference the writer's reader is held to.
 */
export function readYamlCarefully(text: string, file: string): unknown {
  return plainDocument(text, file).document.toJS({ maxAliasCount: 0 });
}

/** The text as one YAML document of plain data, or a {@link TrajectoryFormatError} where it is not. */
function plainDocument(text: string, file: string): { document: YAML.Document.Parsed; at: Locate } {
  const YAML = yamlLibrary();
  const lines = new YAML.LineCounter();
  const at: Locate = (offset, problem, path) => {
    const position = offset === undefined ? undefined : lines.linePos(offset);
    return new TrajectoryFormatError(problem, file, position?.line, position?.col, path);
  };
  const read = plainTokens(text, lines.addNewLine);
  if ('refused' in read) throw at(read.refused.offset, read.refused.problem);
  const documents = new YAML.Composer(PARSE_OPTIONS).compose(read.tokens, true, text.length);
  const document = documents.next().value as YAML.Document.Parsed; // always one: an empty text composes to one
  const another = documents.next().value;
  const [error] = document.errors;
  if (error !== undefined) throw at(error.pos[0], `this is not valid YAML: ${firstLine(error.message)}`);
  if (another)
    throw at(another.range[0], 'the file holds a second YAML document (after `---`); a trajectory is one document.');
  refuseWhatIsNotData(document, at);
  const [warning] = document.warnings;
  if (warning !== undefined) throw at(warning.pos[0], `this YAML is not plain data: ${firstLine(warning.message)}`);
  if (document.contents === null) throw at(0, 'the file is empty; a trajectory starts with `version: 1`.');
  return { document, at };
}

/** A key written twice, and a number no JSON value can hold (anchors, aliases and tags are refused from the tokens). */
function refuseWhatIsNotData(document: YAML.Document, at: Locate): void {
  const YAML = yamlLibrary();
  YAML.visit(document, {
    Map(_key, node) {
      const keys = new Set<string>();
      for (const pair of node.items) {
        const key = YAML.isScalar(pair.key) ? String(pair.key.value) : undefined;
        if (key === undefined) continue;
        if (keys.has(key))
          throw at(
            (pair.key as YAML.Scalar).range?.[0],
            `the key '${key}' appears twice in one mapping; a mapping holds each key once.`,
          );
        keys.add(key);
      }
    },
    Scalar(_key, node) {
      if (typeof node.value === 'number' && !Number.isFinite(node.value)) {
        throw at(
          node.range?.[0],
          `${String(node.source ?? node.value)} is not a finite number, and a trajectory holds JSON values, ` +
            'which cannot be infinite or NaN. Quote it if it is text.',
        );
      }
    },
  });
}

/** For a missing field, the position of the deepest mapping on its path that does exist. */
function nearestRange(document: YAML.Document, path: (string | number)[]): number | undefined {
  const YAML = yamlLibrary();
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? document.contents : document.getIn(path.slice(0, depth), true);
    if (YAML.isNode(node)) return node.range?.[0];
  }
  return undefined;
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}
