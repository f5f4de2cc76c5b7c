import { describeValue } from '../json/describeValue.js';
import type { ToolAnnotations } from './annotations.js';
import { ToolDeclarationError } from './declarationError.js';
import type { ToolDeclaration } from './toolDeclaration.js';
import type { ToolInput } from './toolInput.js';
import { POSTURE_FIELDS, type PostureKind } from './postureFields.js';
import { checkProvenanceOptions } from './provenanceOptions.js';
import { unknownOptionMessage } from './unknownOption.js';

/** Every key a declaration may have: its own, then its posture's (`postureFields.ts`); checked both ways below. */
const TOOL_OPTIONS = [
  'name',
  'description',
  'input',
  'run',
  'output',
  ...POSTURE_FIELDS.map((field) => field.option.name),
] as const;
const ANNOTATIONS = ['title', 'readOnly', 'destructive', 'idempotent', 'openWorld'] as const;
type Complete<Listed, All> = [Exclude<All, Listed>] extends [never] ? true : never;
type Option = (typeof TOOL_OPTIONS)[number];
const toolOptionsComplete: Complete<Option, keyof ToolDeclaration<ToolInput>> = true;
const toolOptionsDeclared: Complete<keyof ToolDeclaration<ToolInput>, Option> = true;
const annotationsComplete: Complete<(typeof ANNOTATIONS)[number], keyof ToolAnnotations> = true;
void toolOptionsComplete;
void toolOptionsDeclared;
void annotationsComplete;

type Fail = (path: string, message: string) => never;

/**
 * Checks a declaration's options other than its schema and run function, before anything is
 * built from them. Plain JavaScript callers and configs loaded from JSON reach here untyped, so
 * nothing is assumed: a flag is `true` or `false`, never a truthy string, and a misspelt option
 * is refused, since a misspelt safety flag would silently be an absent one.
 */
export function checkToolOptions(name: string, declaration: object): void {
  const fail: Fail = (path, message) => {
    throw new ToolDeclarationError('invalid_option', name, path, `Tool '${name}': ${message}`);
  };
  for (const key of Object.keys(declaration)) {
    if (!(TOOL_OPTIONS as readonly string[]).includes(key))
      fail(key, unknownOptionMessage(key, TOOL_OPTIONS, { one: 'an option of a tool', all: 'options' }));
  }
  const d = declaration as Record<string, unknown>;
  if (d.description !== undefined && typeof d.description !== 'string')
    fail('description', `'description' must be a string, but it was ${describeValue(d.description)}.`);
  for (const { option } of POSTURE_FIELDS) OPTION_CHECKS[option.kind](d, option.name, fail);
  checkProvenanceOptions(d, fail);
}

/** The check of a posture option's value alone, by the option's kind. */
const OPTION_CHECKS: Record<PostureKind, (d: Record<string, unknown>, key: string, fail: Fail) => void> = {
  flag: (d, key, fail) => checkBoolean(d, key, key, fail),
  name: (d, key, fail) => checkNonEmptyString(d[key], key, fail),
  annotations: (d, key, fail) => {
    if (d[key] !== undefined) checkAnnotations(d[key], fail);
  },
  // Paths and a taint policy belong to a privileged tool: checkProvenanceOptions checks them with the flag.
  paths: () => {},
  taintPolicy: () => {},
  // defineTool checks a cap, with a code of its own for a negative one.
  cap: () => {},
  // No option is a map of names (wireNames are asked for with a flag).
  nameMap: () => {},
};

function checkAnnotations(annotations: unknown, fail: Fail): void {
  if (typeof annotations !== 'object' || annotations === null || Array.isArray(annotations)) {
    fail(
      'annotations',
      `'annotations' must be an object such as { readOnly: true }, but it was ${describeValue(annotations)}.`,
    );
  }
  const a = annotations as Record<string, unknown>;
  for (const key of Object.keys(a)) {
    if (!(ANNOTATIONS as readonly string[]).includes(key))
      fail(
        `annotations.${key}`,
        unknownOptionMessage(`annotations.${key}`, ANNOTATIONS, { one: 'an annotation', all: 'annotations' }),
      );
  }
  if (a.title !== undefined && typeof a.title !== 'string')
    fail('annotations.title', `'annotations.title' must be a string, but it was ${describeValue(a.title)}.`);
  for (const key of ['readOnly', 'destructive', 'idempotent', 'openWorld'] as const)
    checkBoolean(a, key, `annotations.${key}`, fail);
}

function checkBoolean(owner: Record<string, unknown>, key: string, path: string, fail: Fail): void {
  const value = owner[key];
  if (value !== undefined && typeof value !== 'boolean')
    fail(path, `'${path}' must be true or false, but it was ${describeValue(value)}.`);
}

function checkNonEmptyString(value: unknown, path: string, fail: Fail): void {
  if (value !== undefined && (typeof value !== 'string' || value === ''))
    fail(path, `'${path}' must be a non-empty string, but it was ${describeValue(value)}.`);
}
