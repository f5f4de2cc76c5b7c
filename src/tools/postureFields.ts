import { quoteValue } from '../json/describeValue.js';
import { type ResolvedAnnotations, resolveAnnotations } from './annotations.js';
import type { TaintPolicy } from './taintPolicy.js';
import type { AnyTool } from './tool.js';

/**
 * A tool's safety posture, declared once: what a tool says about how legate must treat it, which
 * the model never sees. Everything that names these fields derives them from the table below: the
 * declaration's options and their checks (`checkToolOptions`), the guard's facts (`toolFacts`), a
 * trajectory header's fields (`trajectory/format/header.ts`) and how a tool is described in one
 * (`describeTool`), and what a replay compares and says of a change (`toolChanges`). The order is
 * the header's and the declaration options'.
 */

/** The kinds of value a posture field holds, each as a tool holds it. */
export interface PostureKinds {
  /** true or false. */
  flag: boolean;
  /** A name: a policy's, a tool's. */
  name: string;
  /** A number of characters of output. */
  cap: number;
  /** What the tool declared about its effects, MCP's defaults filled in for what it left out. */
  annotations: ResolvedAnnotations;
  /** Field paths (`to.iban`, `[].subject`). */
  paths: readonly string[];
  /** What a tainted run does with a call: block it, or hold it for a person. */
  taintPolicy: TaintPolicy;
  /** Names, each with another name. */
  nameMap: Readonly<Record<string, string>>;
}
export type PostureKind = keyof PostureKinds;

/** What decides whether a field that applies only to some tools is written: the tool's other facts. */
interface PostureConditions {
  readonly privileged?: boolean | undefined;
  /** The tool declared annotations; otherwise its `annotations` are MCP's defaults. */
  readonly annotated?: boolean | undefined;
}

interface FieldOf<K extends PostureKind> {
  /** The tool's property, and the header's key where a header records it. */
  readonly name: string;
  readonly kind: K;
  /** The declaration option that sets it, with that option's kind (wireNames: a flag asks for them). */
  readonly option: { readonly name: string; readonly kind: PostureKind };
  /**
   * What leaving the option out means: the tool's value then, or what its undefined stands for (onTaint's
   * `block`). A header writes neither it nor undefined; a replay takes the two for the same fact.
   */
  readonly default: PostureKinds[K] | undefined;
  /** Besides a value other than the default, what must hold of the tool for a header to write it. */
  readonly writtenWhen?: (tool: PostureConditions) => boolean;
  /** Its words in a header's JSON Schema, where it has some. */
  readonly description?: string;
  /** A server tool's header records it too (of the posture, a server tool has only this). */
  readonly serverTool?: true;
  /** Files recorded before the header kept what the model saw (`inputSchema`) have it too. */
  readonly legacy?: true;
  /** The guard decides by it (`ToolFacts`). */
  readonly guard?: true;
}

interface RecordedFieldOf<K extends PostureKind> extends FieldOf<K> {
  /**
   * Where a header writes it: with the posture, before what the model was shown; or after it
   * (`wireNames` is about the schema shown, so it follows it).
   */
  readonly header: 'posture' | 'afterSchema';
  /** The value in words, as "tool 'x' was ... when recorded and is ... now" reads it; undefined: not written. */
  readonly words: (value: PostureKinds[K] | undefined) => string;
}

interface UnrecordedFieldOf<K extends PostureKind> extends FieldOf<K> {
  /** A header does not record it (a replay decides by it, and reads it from today's tool). */
  readonly header: 'none';
}

/** One posture field: how it is declared, held, checked, recorded and said. */
type PostureField = { [K in PostureKind]: RecordedFieldOf<K> | UnrecordedFieldOf<K> }[PostureKind];

const pathWords = (paths: readonly string[]) => paths.map((path) => `'${path}'`).join(', ');

/** Each annotation, and its value in words. */
export const ANNOTATION_WORDS: { [K in keyof ResolvedAnnotations]-?: (value: ResolvedAnnotations[K]) => string } = {
  title: (value) => (value === undefined ? 'untitled' : `titled ${quoteValue(value)}`),
  readOnly: (value) => (value ? 'read-only' : 'not read-only'),
  destructive: (value) => (value ? 'destructive' : 'not destructive'),
  idempotent: (value) => (value ? 'idempotent' : 'not idempotent'),
  openWorld: (value) => (value ? 'open-world' : 'closed-world'),
};

function annotationWords(annotations: ResolvedAnnotations): string {
  const keys = Object.keys(ANNOTATION_WORDS) as (keyof ResolvedAnnotations)[];
  return keys
    .filter((key) => annotations[key] !== undefined)
    .map((key) => (ANNOTATION_WORDS[key] as (value: unknown) => string)(annotations[key]))
    .join(', ');
}

export const POSTURE_FIELDS = [
  {
    name: 'untrusted',
    kind: 'flag',
    option: { name: 'untrusted', kind: 'flag' },
    default: false,
    header: 'posture',
    serverTool: true,
    legacy: true,
    guard: true,
    words: (value) => (value === true ? 'untrusted' : 'trusted'),
  },
  {
    name: 'privileged',
    kind: 'flag',
    option: { name: 'privileged', kind: 'flag' },
    default: false,
    header: 'posture',
    legacy: true,
    guard: true,
    words: (value) => (value === true ? 'privileged' : 'not privileged'),
  },
  {
    name: 'policy',
    kind: 'name',
    option: { name: 'policy', kind: 'name' },
    default: undefined,
    header: 'posture',
    legacy: true,
    guard: true,
    words: (value) => (value === undefined ? 'not gated by a policy' : `gated by policy '${value}'`),
  },
  {
    name: 'compensatedBy',
    kind: 'name',
    option: { name: 'compensatedBy', kind: 'name' },
    default: undefined,
    header: 'posture',
    description: 'The tool that undoes it.',
    words: (value) => (value === undefined ? 'not compensated by a tool' : `compensated by '${value}'`),
  },
  {
    name: 'maxResultLength',
    kind: 'cap',
    option: { name: 'maxResultLength', kind: 'cap' },
    default: 0,
    header: 'posture',
    description: 'Characters of output shown to the model before the rest is withheld, where capped.',
    words: (value) =>
      value === undefined ? 'not capped' : `capped at ${value} character${value === 1 ? '' : 's'} of output`,
  },
  {
    name: 'annotations',
    kind: 'annotations',
    option: { name: 'annotations', kind: 'annotations' },
    default: resolveAnnotations(),
    writtenWhen: (tool) => tool.annotated === true,
    header: 'posture',
    description: 'The annotations, present only when the tool declared some.',
    words: (value) =>
      value === undefined ? "not annotated (MCP's defaults apply)" : `annotated as ${annotationWords(value)}`,
  },
  {
    name: 'remote',
    kind: 'flag',
    option: { name: 'remote', kind: 'flag' },
    default: false,
    header: 'none',
  },
  {
    name: 'sensitive',
    kind: 'paths',
    option: { name: 'sensitive', kind: 'paths' },
    default: undefined,
    header: 'posture',
    guard: true,
    description: 'Argument paths a tainted run must trace to trusted text (argument provenance).',
    words: (value) =>
      value === undefined ? 'without sensitive arguments (strict taint)' : `sensitive in ${pathWords(value)}`,
  },
  {
    name: 'outsideAuthored',
    kind: 'paths',
    option: { name: 'outsideAuthored', kind: 'paths' },
    default: undefined,
    header: 'posture',
    guard: true,
    description: 'Output field paths outsiders write; the rest of its JSON output is vouched for.',
    words: (value) =>
      value === undefined ? 'outside-authored in all its output' : `outside-authored in ${pathWords(value)}`,
  },
  {
    name: 'onTaint',
    kind: 'taintPolicy',
    option: { name: 'onTaint', kind: 'taintPolicy' },
    default: 'block',
    // Only a privileged tool has a policy in a tainted run.
    writtenWhen: (tool) => tool.privileged === true,
    header: 'posture',
    guard: true,
    description: "A tainted run's call it does not clear waits for a person (its effective policy).",
    words: (value) => (value === 'approve' ? 'held for a person when tainted' : 'blocked when tainted'),
  },
  {
    name: 'wireNames',
    kind: 'nameMap',
    option: { name: 'renameUnsafeProperties', kind: 'flag' },
    default: undefined,
    header: 'afterSchema',
    description:
      'Argument names the model was shown that the tool receives under other names (a name the Messages API ' +
      'refuses, such as DateSent< or filter[name]): each name shown, with the name the tool receives.',
    words: (value) =>
      value === undefined || Object.keys(value).length === 0
        ? "given the model's arguments under the model's names"
        : `given the model's ${Object.entries(value)
            .map(([shown, wire]) => `${quoteValue(shown)} as ${quoteValue(wire)}`)
            .join(', ')}`,
  },
] as const satisfies readonly PostureField[];

type Fields = (typeof POSTURE_FIELDS)[number];
/** The name of each posture field. */
export type PostureName = Fields['name'];
/** A field a trajectory's header records. */
export type RecordedPostureField = Extract<Fields, { header: 'posture' | 'afterSchema' }>;
export type RecordedPostureName = RecordedPostureField['name'];
/** A field the guard decides by. */
export type GuardPostureName = Extract<Fields, { guard: true }>['name'];

/** The fields a header records, in its order. */
export const RECORDED_POSTURE: readonly RecordedPostureField[] = POSTURE_FIELDS.filter(
  (field): field is RecordedPostureField => field.header !== 'none',
);

/**
 * What a trajectory's header records of a tool besides its definition: its posture, as the tool
 * holds it (a defined tool has it all; a server tool only whether it taints).
 */
export type ToolPosture = {
  readonly [F in RecordedPostureField as F['name']]?: PostureKinds[F['kind']] | undefined;
} & PostureConditions;

/**
 * The value a header writes of one field of a tool's posture (a copy), or undefined where it writes
 * none: the tool holds the default, or the field does not apply to it.
 */
export function writtenPosture(field: RecordedPostureField, tool: ToolPosture): unknown {
  const value = tool[field.name];
  if (value === undefined || value === field.default) return undefined;
  if ('writtenWhen' in field && !field.writtenWhen(tool)) return undefined;
  if (Array.isArray(value)) return [...value];
  return typeof value === 'object' ? { ...value } : value;
}

/** Each field is a property of a defined tool, holding a value of its kind: a field the Tool lacks does not compile. */
type Held = { readonly [F in Fields as F['name']]?: PostureKinds[F['kind']] | undefined };
const toolHoldsPosture: [PostureName] extends [keyof AnyTool] ? (AnyTool extends Held ? true : never) : never = true;
void toolHoldsPosture;
