import { describeValue } from '../json/describeValue.js';
import { fieldPathProblem } from '../guard/provenance/fieldPath.js';
import { TAINT_POLICIES } from './taintPolicy.js';
import { nearestName } from './unknownOption.js';

type Fail = (path: string, message: string) => never;

/**
 * Checks the provenance declarations of a tool: `sensitive` (argument paths of a privileged tool),
 * `outsideAuthored` (output field paths of an untrusted tool) and `onTaint` (a privileged tool's
 * policy in a tainted run). Each belongs to one kind of tool only: on any other it would be a
 * promise nothing keeps, so it is refused rather than ignored.
 */
export function checkProvenanceOptions(d: Record<string, unknown>, fail: Fail): void {
  checkPaths(d, 'sensitive', 'privileged', 'argument', fail);
  checkPaths(d, 'outsideAuthored', 'untrusted', 'output field', fail);
  if (d.onTaint === undefined) return;
  if (!(TAINT_POLICIES as readonly unknown[]).includes(d.onTaint))
    fail('onTaint', `'onTaint' must be 'block' or 'approve', but it was ${describeValue(d.onTaint)}.`);
  if (d.privileged !== true)
    fail(
      'onTaint',
      `'onTaint' decides what happens to a privileged tool in a tainted run, but this tool is not privileged. ` +
        'Add privileged: true, or leave onTaint out.',
    );
}

function checkPaths(
  d: Record<string, unknown>,
  key: 'sensitive' | 'outsideAuthored',
  flag: 'privileged' | 'untrusted',
  what: string,
  fail: Fail,
): void {
  const paths = d[key];
  if (paths === undefined) return;
  if (!Array.isArray(paths) || paths.length === 0)
    fail(
      key,
      `'${key}' must be a non-empty list of ${what} paths such as ['recipient', 'to.iban', 'items[].id'], but it ` +
        `was ${describeValue(paths)}.`,
    );
  for (const [i, path] of (paths as unknown[]).entries()) {
    const problem = fieldPathProblem(path);
    if (problem !== undefined) fail(`${key}[${i}]`, `'${key}[${i}]': ${problem}.`);
    if ((paths as unknown[]).indexOf(path) !== i) fail(`${key}[${i}]`, `'${key}[${i}]' lists '${path}' twice.`);
  }
  if (d[flag] !== true)
    fail(key, `'${key}' is only for a tool that is ${flag}, but this one is not. Add ${flag}: true, or leave it out.`);
}

/**
 * A sensitive path must start at one of the tool's arguments: when the input schema lists its
 * properties, the first key of each path is one of them (a misspelt argument would silently make
 * provenance check nothing).
 */
export function checkSensitiveArguments(
  sensitive: readonly string[] | undefined,
  properties: Readonly<Record<string, unknown>> | undefined,
  fail: Fail,
): void {
  if (sensitive === undefined) return;
  for (const [i, path] of sensitive.entries()) {
    const first = /^[^.[]*/.exec(path)![0];
    if (first === '')
      fail(
        `sensitive[${i}]`,
        `'sensitive[${i}]' ('${path}') must start with the name of an argument: a tool's input is an object.`,
      );
    if (properties === undefined || Object.hasOwn(properties, first)) continue;
    const known = Object.keys(properties);
    const near = nearestName(first, known);
    fail(
      `sensitive[${i}]`,
      `'sensitive[${i}]' ('${path}') starts with '${first}', which is not an argument of this tool` +
        `${near === undefined ? '' : ` (did you mean '${near}'?)`}. Its arguments are ` +
        `${known.map((k) => `'${k}'`).join(', ') || 'none'}.`,
    );
  }
}
