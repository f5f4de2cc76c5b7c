import { describeValue } from '../json/describeValue.js';
import { fieldPathProblem } from '../json/fieldPath.js';
import { TAINT_POLICIES } from './taintPolicy.js';
import { nearestName } from './unknownOption.js';

type Fail = (path: string, message: string) => never;

/**
 * Checks the provenance declarations of a tool: `sensitive` (argument paths of a privileged tool),
 * `outsideAuthored` (output field paths others write, on any tool; `[]`: none) and `onTaint` (a
 * privileged tool's policy in a tainted run). `sensitive` and `onTaint` belong to a privileged tool
 * only: on any other they would be a promise nothing keeps, so they are refused rather than ignored.
 */
export function checkProvenanceOptions(d: Record<string, unknown>, fail: Fail): void {
  checkPaths(d, 'sensitive', 'argument', fail);
  checkPaths(d, 'outsideAuthored', 'output field', fail);
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

function checkPaths(d: Record<string, unknown>, key: 'sensitive' | 'outsideAuthored', what: string, fail: Fail): void {
  const paths = d[key];
  if (paths === undefined) return;
  // An empty `sensitive` would trace nothing; an empty `outsideAuthored` says no field is others'.
  if (!Array.isArray(paths) || (key === 'sensitive' && paths.length === 0))
    fail(
      key,
      `'${key}' must be a ${key === 'sensitive' ? 'non-empty ' : ''}list of ${what} paths such as ` +
        `['recipient', 'to.iban', 'items[].id'], but it was ${describeValue(paths)}.`,
    );
  for (const [i, path] of (paths as unknown[]).entries()) {
    const problem = fieldPathProblem(path);
    if (problem !== undefined) fail(`${key}[${i}]`, `'${key}[${i}]': ${problem}.`);
    if ((paths as unknown[]).indexOf(path) !== i) fail(`${key}[${i}]`, `'${key}[${i}]' lists '${path}' twice.`);
  }
  if (key === 'sensitive' && d.privileged !== true)
    fail(
      key,
      "'sensitive' is only for a tool that is privileged, but this one is not. Add privileged: true, or leave it out.",
    );
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
