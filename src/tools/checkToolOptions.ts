import { describeValue } from '../json/describeValue.js';
import type { ToolAnnotations } from './annotations.js';
import { ToolDeclarationError } from './declarationError.js';
import type { ToolDeclaration } from './toolDeclaration.js';
import type { ToolInput } from './toolInput.js';
import { checkProvenanceOptions } from './provenanceOptions.js';
import { unknownOptionMessage } from './unknownOption.js';

/** Every key a declaration may have; the type below fails to compile if one is missing. */
const TOOL_OPTIONS = [
  'name',
  'description',
  'input',
  'run',
  'output',
  'untrusted',
  'privileged',
  'policy',
  'compensatedBy',
  'maxResultLength',
  'annotations',
  'remote',
  'sensitive',
  'outsideAuthored',
  'onTaint',
  'renameUnsafeProperties',
] as const;
const ANNOTATIONS = ['title', 'readOnly', 'destructive', 'idempotent', 'openWorld'] as const;
type Complete<Listed, All> = [Exclude<All, Listed>] extends [never] ? true : never;
const toolOptionsComplete: Complete<(typeof TOOL_OPTIONS)[number], keyof ToolDeclaration<ToolInput>> = true;
const annotationsComplete: Complete<(typeof ANNOTATIONS)[number], keyof ToolAnnotations> = true;
void toolOptionsComplete;
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
  checkBoolean(d, 'untrusted', 'untrusted', fail);
  checkBoolean(d, 'privileged', 'privileged', fail);
  checkBoolean(d, 'remote', 'remote', fail);
  checkBoolean(d, 'renameUnsafeProperties', 'renameUnsafeProperties', fail);
  checkNonEmptyString(d.policy, 'policy', fail);
  checkNonEmptyString(d.compensatedBy, 'compensatedBy', fail);
  if (d.annotations !== undefined) checkAnnotations(d.annotations, fail);
  checkProvenanceOptions(d, fail);
}

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
