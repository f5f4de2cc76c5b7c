import { yamlLibrary } from './yamlLibrary.js';
import { pathBeyondDepth } from '../json/jsonDepth.js';
import { jsonText } from '../json/jsonText.js';
import { MAX_YAML_VALUE_DEPTH } from './limits.js';
import { flowKeys, optionFor, planOf, type Plan } from './format/plan.js';
import { trajectoryFormat } from './format/trajectory.js';
import type { Trajectory } from './types.js';

/**
 * Keys whose small maps and lists read best on one line (`usage: { input: 12, output: 3 }`), as
 * the format marks them; applied wherever the key appears, free values included. Made on the first write, not when
 * legate is imported (so is the format's plan, planOf keeping it).
 */
let flowKeysOnce: Set<string> | undefined;
const FLOW_KEYS = () => (flowKeysOnce ??= flowKeys(planOf(trajectoryFormat)));

const STRINGIFY_OPTIONS = {
  indent: 2,
  lineWidth: 0, // never fold: long text and signatures stay byte-exact on one logical line
  minContentWidth: 0,
  blockQuote: 'literal',
  aliasDuplicateObjects: false, // a shared object is written twice, never as an alias the reader refuses
} as const;

/**
 * Text made only of spaces, tabs and line breaks, with a space or a tab. The library writes it as a
 * block scalar of blank lines, whose indentation a reader then takes from the longest of them,
 * so `" \n"` would read back as `"\n"`; it is written double-quoted instead.
 */
const isBlankLinesWithSpaces = (text: string) => /^[ \t\n]+$/.test(text) && text.includes('\n') && /[ \t]/.test(text);

/**
 * Writes a trajectory as YAML: keys in the order the format declares them (`./format/`), long
 * text as literal blocks, small maps on one line. Serialising what `parseTrajectory` read gives the same bytes.
 */
export function serializeTrajectory(trajectory: Trajectory): string {
  const YAML = yamlLibrary();
  const document = new YAML.Document(ordered(trajectory, planOf(trajectoryFormat)), STRINGIFY_OPTIONS);
  YAML.visit(document, {
    Pair(_key, pair) {
      if (
        YAML.isScalar(pair.key) &&
        FLOW_KEYS().has(String(pair.key.value)) &&
        (YAML.isMap(pair.value) || YAML.isSeq(pair.value))
      ) {
        pair.value.flow = true;
      }
    },
    Scalar(_key, node) {
      if (typeof node.value === 'string' && isBlankLinesWithSpaces(node.value)) node.type = YAML.Scalar.QUOTE_DOUBLE;
    },
  });
  return document.toString(STRINGIFY_OPTIONS);
}

/** A copy with every field where the format declares it, and nothing undefined. */
function ordered(value: unknown, plan: Plan): unknown {
  switch (plan.kind) {
    case 'object': {
      const object: Record<string, unknown> = {};
      const given = value as Record<string, unknown>;
      for (const field of plan.fields) {
        const item = given[field.key];
        if (item === undefined) continue;
        if (field.free) Object.assign(object, freeValue(field.key, item));
        else object[field.key] = ordered(item, field.plan);
      }
      return object;
    }
    case 'list':
      return (value as unknown[]).map((item) => ordered(item, plan.item));
    case 'record': {
      const entries = Object.entries(value as Record<string, unknown>);
      return Object.fromEntries(entries.map(([name, item]) => [name, ordered(item, plan.value)]));
    }
    case 'union': {
      const option = optionFor(plan, value);
      return option === undefined ? value : ordered(value, option);
    }
    case 'leaf':
      return value;
  }
}

/**
 * A value whose shape the format does not fix (a model's tool input, say): written as YAML, or,
 * when it nests deeper than the format writes as YAML, as JSON text under `<key>Json`.
 */
function freeValue(key: string, value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (pathBeyondDepth(value, MAX_YAML_VALUE_DEPTH) !== undefined) return { [`${key}Json`]: jsonText(value) ?? 'null' };
  return { [key]: value };
}
