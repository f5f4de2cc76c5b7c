import { firstDifference } from '../json/firstDifference.js';
import { contrast } from '../trajectory/contrast.js';
import type { RecordedTool } from '../trajectory/types.js';
import { ANNOTATION_WORDS, RECORDED_POSTURE, type RecordedPostureName } from '../tools/postureFields.js';

type Annotations = NonNullable<RecordedTool['annotations']>;

/**
 * The two parts of a tool a replay compares: what the model SAW (its name, description and
 * input schema, and their digest) and its safety POSTURE (flags, policy, compensating tool,
 * output cap, annotations), which the model never sees.
 */
export type ToolChangePart = 'seen' | 'posture';

/** Fields of what the model saw: `tool` is a tool added or removed, `order` the order they are offered in. */
const SEEN_FIELDS = ['tool', 'order', 'description', 'inputSchema', 'digest'] as const;
/** A field of what the model saw, or of the posture: each field a header records (`tools/postureFields.ts`). */
export type ToolChangeField = (typeof SEEN_FIELDS)[number] | RecordedPostureName;

/** One way a tool differs from the recording, in words and as data. */
export interface ToolChange {
  /** The tool, by name. */
  tool: string;
  field: ToolChangeField;
  part: ToolChangePart;
  /** Where inside the field: the JSON path in the input schema, or the annotation (`readOnly`, ...). */
  path?: string;
  /** As recorded (undefined: absent). */
  expected: unknown;
  /** As it is now (undefined: absent). */
  actual: unknown;
  /** The change in words: "tool 'read_email' was untrusted when recorded and is trusted now". */
  message: string;
}

/** A change a replay found: in the tools of which agent, first seen on which turn. */
export interface ReplayToolChange extends ToolChange {
  agent: string;
  turn: number;
}

/**
 * How today's tools differ from the recorded ones, tool by tool and field by field, both sides
 * as `describeTool` describes them; empty when they are the same. `part` limits the comparison
 * to what the model saw or to the posture. A recorded tool without `inputSchema` was written
 * before the header kept it: of such a tool only the name, the digest and the flags written
 * then (`untrusted`, `privileged`, `policy`) are compared.
 */
export function toolChanges(
  recorded: readonly RecordedTool[],
  today: readonly RecordedTool[],
  part?: ToolChangePart,
): ToolChange[] {
  const changes: ToolChange[] = [];
  const todayByName = byName(today);
  const recordedByName = byName(recorded);
  if (part !== 'posture') changes.push(...offerChanges(recorded, today, recordedByName, todayByName));
  for (const before of recordedByName.values()) {
    const after = todayByName.get(before.name);
    if (after === undefined) continue;
    if (part !== 'posture') changes.push(...seenChanges(before, after));
    if (part !== 'seen') changes.push(...postureChanges(before, after));
  }
  return changes;
}

/** What stands for a schema in a {@link postureView}: that there is one, not its text. */
const SCHEMA_HELD: Record<string, never> = Object.freeze({});

/**
 * A tool as the posture comparison (`toolChanges(..., 'posture')`) reads it: its name, its posture, and whether it has
 * an input schema (a tool recorded before the header kept one is compared by fewer fields), not the schema's text nor
 * its description. A replay redacts both sides of that comparison once a file: redacting the views instead of the
 * whole descriptions leaves out every string of every schema, which the comparison never reads.
 */
export function postureView(tool: RecordedTool): RecordedTool {
  const { description: _description, inputSchema, ...view } = tool;
  return inputSchema === undefined ? view : { ...view, inputSchema: SCHEMA_HELD };
}

/** Tools by name, the first of a name where a list repeats one. */
function byName(tools: readonly RecordedTool[]): Map<string, RecordedTool> {
  const map = new Map<string, RecordedTool>();
  for (const tool of tools) if (!map.has(tool.name)) map.set(tool.name, tool);
  return map;
}

function change(
  tool: string,
  field: ToolChangeField,
  expected: unknown,
  actual: unknown,
  message: string,
  path?: string,
): ToolChange {
  const part = (SEEN_FIELDS as readonly string[]).includes(field) ? 'seen' : 'posture';
  return { tool, field, part, ...(path === undefined ? {} : { path }), expected, actual, message };
}

/** Tools removed, added, or offered in another order. */
function offerChanges(
  recorded: readonly RecordedTool[],
  today: readonly RecordedTool[],
  recordedByName: Map<string, RecordedTool>,
  todayByName: Map<string, RecordedTool>,
): ToolChange[] {
  const changes: ToolChange[] = [];
  for (const name of recordedByName.keys())
    if (!todayByName.has(name))
      changes.push(change(name, 'tool', name, undefined, `tool '${name}' was offered when recorded and is not now`));
  for (const name of todayByName.keys())
    if (!recordedByName.has(name))
      changes.push(change(name, 'tool', undefined, name, `tool '${name}' is offered now and was not when recorded`));
  const before = recorded.map((tool) => tool.name).filter((name) => todayByName.has(name));
  const after = today.map((tool) => tool.name).filter((name) => recordedByName.has(name));
  const moved = before.findIndex((name, i) => after[i] !== name);
  if (moved >= 0) {
    const name = before[moved]!;
    const message =
      `tool '${name}' is offered in another place: in the order ${before.join(', ')} when recorded, ` +
      `${after.join(', ')} now`;
    changes.push(change(name, 'order', before, after, message));
  }
  return changes;
}

/** A tool recorded before the header kept what the model saw (its description and schema). */
const isLegacy = (tool: RecordedTool) => tool.inputSchema === undefined;

function seenChanges(before: RecordedTool, after: RecordedTool): ToolChange[] {
  const name = before.name;
  const changes: ToolChange[] = [];
  const legacy = isLegacy(before) || isLegacy(after);
  if (!legacy) {
    if (before.description !== after.description) {
      const [recorded, now] = contrast(before.description, after.description);
      const message = `tool '${name}' has another description: ${recorded} when recorded, ${now} now`;
      changes.push(change(name, 'description', before.description, after.description, message));
    }
    const difference = firstDifference(before.inputSchema, after.inputSchema);
    if (difference !== undefined) {
      const [recorded, now] = contrast(difference.expected, difference.actual);
      const where = difference.path === '' ? '' : ` at ${difference.path}`;
      const message = `tool '${name}' has another input schema${where}: ${recorded} when recorded, ${now} now`;
      changes.push(change(name, 'inputSchema', difference.expected, difference.actual, message, difference.path));
    }
  }
  if (changes.length === 0 && before.digest !== after.digest) {
    const why = legacy
      ? '; the recording does not keep its description and input schema: re-record it to see what changed'
      : '';
    const message =
      `tool '${name}' is shown to the model differently (digest ${before.digest} when recorded, ` +
      `${after.digest} now)${why}`;
    changes.push(change(name, 'digest', before.digest, after.digest, message));
  }
  return changes;
}

function postureChanges(before: RecordedTool, after: RecordedTool): ToolChange[] {
  const name = before.name;
  const legacy = isLegacy(before) || isLegacy(after);
  const changes: ToolChange[] = [];
  const wasIs = (was: string, is: string) => `tool '${name}' was ${was} when recorded and is ${is} now`;
  for (const field of RECORDED_POSTURE) {
    if (legacy && !('legacy' in field)) continue;
    const words = field.words as (value: unknown) => string;
    if (field.name === 'annotations' && before.annotations !== undefined && after.annotations !== undefined) {
      for (const key of Object.keys(ANNOTATION_WORDS) as (keyof Annotations)[]) {
        const [was, is] = [before.annotations[key], after.annotations[key]];
        if (was === is) continue;
        const say = ANNOTATION_WORDS[key] as (value: unknown) => string;
        changes.push(change(name, field.name, was, is, wasIs(say(was), say(is)), key));
      }
      continue;
    }
    const [was, is] = [before[field.name], after[field.name]];
    // The header leaves the default out: absent and the default (a flag's false) are the same fact. Absent
    // annotations were not declared, which is not the same as MCP's defaults declared: those differ below.
    if ((was ?? field.default) === (is ?? field.default)) continue;
    if (typeof was === 'object' && typeof is === 'object' && JSON.stringify(was) === JSON.stringify(is)) continue;
    changes.push(change(name, field.name, was, is, wasIs(words(was), words(is))));
  }
  return changes;
}
