import YAML from 'yaml';
import { TrajectoryFormatError } from './errors.js';
import { readPlainYaml } from './fastYaml.js';
import { FieldError, readTrajectory } from './readTrajectory.js';
import type { Trajectory } from './types.js';

/** Files larger than this are refused before they are parsed. */
export const MAX_TRAJECTORY_BYTES = 16 * 1024 * 1024;

const PARSE_OPTIONS = {
  schema: 'core',
  merge: false, // `<<` is a plain key, never a merge
  uniqueKeys: true,
  strict: true,
  prettyErrors: false,
} as const;

/**
 * Reads a trajectory from YAML text. Anything wrong (bad YAML, an alias, a tag, a field of the
 * wrong type, a newer format version) is a {@link TrajectoryFormatError} with file:line:column.
 */
export function parseTrajectory(text: string, file = '<trajectory>'): Trajectory {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_TRAJECTORY_BYTES) {
    throw new TrajectoryFormatError(`the file is ${bytes} bytes, over the ${MAX_TRAJECTORY_BYTES}-byte limit for a trajectory; it was not parsed.`, file, undefined, undefined, undefined);
  }
  // Plain, well-formed files (all that legate writes) take the fast path; anything else, and
  // every error, goes the careful way, which knows where in the file each node is.
  const plain = readPlainYaml(text);
  if (plain !== undefined) {
    try {
      return readTrajectory(plain.value);
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
    }
  }
  return parseCarefully(text, file);
}

function parseCarefully(text: string, file: string): Trajectory {
  const lines = new YAML.LineCounter();
  const document = YAML.parseDocument(text, { ...PARSE_OPTIONS, lineCounter: lines });
  const at = (offset: number | undefined, problem: string, path?: string): TrajectoryFormatError => {
    const position = offset === undefined ? undefined : lines.linePos(offset);
    return new TrajectoryFormatError(problem, file, position?.line, position?.col, path);
  };
  const [error] = document.errors;
  if (error !== undefined) throw at(error.pos[0], `this is not valid YAML: ${firstLine(error.message)}`);
  // Aliases and tags need one of these characters; most files have none, and skip the walk.
  if (/[!&*]/.test(text)) refuseAliasesAndTags(document, at);
  const [warning] = document.warnings;
  if (warning !== undefined) throw at(warning.pos[0], `this YAML is not plain data: ${firstLine(warning.message)}`);
  if (document.contents === null) throw at(0, 'the file is empty; a trajectory starts with `version: 1`.');

  try {
    return readTrajectory(document.toJS({ maxAliasCount: 0 }));
  } catch (caught) {
    if (!(caught instanceof FieldError)) throw caught;
    const node = document.getIn(caught.path, true) as YAML.Node | undefined;
    const offset = YAML.isNode(node) ? node.range?.[0] : nearestRange(document, caught.path);
    throw at(offset, caught.message, caught.path.join('.'));
  }
}

/** Aliases could expand a small file into a huge one, and tags could build values that are not data. */
function refuseAliasesAndTags(document: YAML.Document, at: (offset: number | undefined, problem: string) => Error): void {
  YAML.visit(document, {
    Alias(_key, node) {
      throw at(node.range?.[0], `YAML aliases (*${node.source}) are not allowed in a trajectory; write the value out.`);
    },
    Node(_key, node) {
      if (node.tag !== undefined) throw at(node.range?.[0], `YAML tags (${node.tag}) are not allowed in a trajectory; it holds plain data only.`);
    },
  });
}

/** For a missing field, the position of the deepest mapping on its path that does exist. */
function nearestRange(document: YAML.Document, path: (string | number)[]): number | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? document.contents : document.getIn(path.slice(0, depth), true);
    if (YAML.isNode(node)) return node.range?.[0];
  }
  return undefined;
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}
