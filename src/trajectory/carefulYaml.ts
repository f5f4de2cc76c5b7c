import type YAML from 'yaml';
import { TrajectoryFormatError } from './errors.js';
import { aliasProblem, anchorProblem, tagProblem } from './fastYaml.js';
import { FieldError } from './field.js';
import { readTrajectory } from './readTrajectory.js';
import type { Trajectory } from './types.js';
import { yamlLibrary } from './yamlLibrary.js';

const PARSE_OPTIONS = {
  schema: 'core',
  merge: false, // `<<` is a plain key, never a merge
  // The library's own check compares each key with every other (quadratic in a wide mapping);
  // duplicates are found below, with a set per mapping.
  uniqueKeys: false,
  strict: true,
  prettyErrors: false,
} as const;

type Locate = (offset: number | undefined, problem: string, path?: string) => TrajectoryFormatError;

/**
 * The careful reader: the `yaml` library, which knows where in the file each node is. It reads
 * what the fast reader could not, and turns every problem into a {@link TrajectoryFormatError}
 * with file:line:column. Its cost is linear in the file: one parse, one walk.
 */
export function parseCarefully(text: string, file: string): Trajectory {
  const YAML = yamlLibrary();
  const lines = new YAML.LineCounter();
  const document = YAML.parseDocument(text, { ...PARSE_OPTIONS, lineCounter: lines });
  const at: Locate = (offset, problem, path) => {
    const position = offset === undefined ? undefined : lines.linePos(offset);
    return new TrajectoryFormatError(problem, file, position?.line, position?.col, path);
  };
  const [error] = document.errors;
  if (error !== undefined) throw at(error.pos[0], `this is not valid YAML: ${firstLine(error.message)}`);
  refuseWhatIsNotData(document, at);
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

/**
 * Anchors and aliases (which could expand a small file into a huge one), tags (which could build
 * values that are not data), a key written twice, and a number no JSON value can hold.
 */
function refuseWhatIsNotData(document: YAML.Document, at: Locate): void {
  const YAML = yamlLibrary();
  YAML.visit(document, {
    Alias(_key, node) {
      throw at(node.range?.[0], aliasProblem(node.source));
    },
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
    Node(_key, node) {
      if (node.anchor !== undefined) throw at(node.range?.[0], anchorProblem(node.anchor));
      if (node.tag !== undefined) throw at(node.range?.[0], tagProblem(node.tag));
      if (YAML.isScalar(node) && typeof node.value === 'number' && !Number.isFinite(node.value)) {
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
