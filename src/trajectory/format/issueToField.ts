import type * as z from 'zod';
import { describeValue } from '../../json/describeValue.js';
import { isPlainObject } from '../../json/jsonValue.js';
import { FieldError, formatPath } from '../field.js';
import { kindNames, optionFor, type Plan } from './plan.js';

type Path = (string | number)[];

/**
 * The first problem the format's check found, in words and at its field: what was expected,
 * what arrived. Within a union (a content block, text or blocks) the problem reported is the one
 * in the form the value takes, or, when it takes none, which forms there are.
 */
export function issueToField(issue: z.core.$ZodIssue, value: unknown, plan: Plan): FieldError {
  return toField(issue, [], value, plan);
}

function toField(issue: z.core.$ZodIssue, base: Path, root: unknown, rootPlan: Plan): FieldError {
  const path = [...base, ...(issue.path as Path)];
  const { value, plan } = at(root, rootPlan, path);
  if (issue.code === 'invalid_union' && plan?.kind === 'union') {
    const option = optionFor(plan, value);
    const errors = option === undefined ? undefined : issue.errors[plan.options.indexOf(option)];
    // A problem inside the form the value takes; a value that is not even that form is none of them.
    if (errors?.[0] !== undefined && errors[0].path.length > 0) return toField(errors[0], path, root, rootPlan);
    const kinds = kindNames(plan);
    if (isPlainObject(value) && kinds.length > 0) {
      const had = describeKeys(value);
      return new FieldError(
        path,
        `${formatPath(path)} should be ${issue.message} with one of ${listed(kinds)}, but it had ${had}.`,
      );
    }
  }
  const parentPath = path.slice(0, -1);
  const parent = at(root, rootPlan, parentPath).value;
  const key = path[path.length - 1];
  if (typeof key === 'string' && isPlainObject(parent) && !Object.hasOwn(parent, key)) {
    const from = parentPath.length === 0 ? '' : ` from ${formatPath(parentPath)}`;
    return new FieldError(parentPath, `'${key}' is missing${from}.`);
  }
  return new FieldError(path, `${formatPath(path)} should be ${issue.message}, but it was ${describeValue(value)}.`);
}

/** The value at a path, and the part of the plan that describes it (undefined past a scalar). */
function at(root: unknown, rootPlan: Plan, path: Path): { value: unknown; plan: Plan | undefined } {
  let value = root;
  let plan: Plan | undefined = rootPlan;
  for (const key of path) {
    if (plan?.kind === 'union') plan = optionFor(plan, value);
    value = isPlainObject(value) || Array.isArray(value) ? (value as Record<string | number, unknown>)[key] : undefined;
    if (plan?.kind === 'object') plan = plan.fields.find((field) => field.key === key)?.plan;
    else if (plan?.kind === 'list') plan = plan.item;
    else if (plan?.kind === 'record') plan = plan.value;
    else plan = undefined;
  }
  return { value, plan };
}

/**
 * The path as the file holds it: a free value read from JSON text is under `<key>Json` there,
 * and a place inside that text has no line of its own, so the path stops at the text.
 */
export function pathInFile(document: unknown, path: Path): Path {
  let value = document;
  for (let depth = 0; depth < path.length; depth++) {
    const key = path[depth]!;
    const asJson =
      isPlainObject(value) &&
      typeof key === 'string' &&
      !Object.hasOwn(value, key) &&
      Object.hasOwn(value, `${key}Json`);
    if (asJson) {
      return [...path.slice(0, depth), `${key}Json`];
    }
    value = isPlainObject(value) || Array.isArray(value) ? (value as Record<string | number, unknown>)[key] : undefined;
  }
  return path;
}

function listed(names: string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

function describeKeys(object: Record<string, unknown>): string {
  const keys = Object.keys(object);
  return keys.length === 0 ? 'no fields' : keys.map((k) => `'${k}'`).join(', ');
}
