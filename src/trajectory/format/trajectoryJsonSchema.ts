import * as z from 'zod';
import { planOf } from './plan.js';
import { trajectoryFormat } from './trajectory.js';

const SCHEMA_ID = 'https://legate.dev/schema/trajectory-v1.schema.json';

/**
 * The JSON Schema of the trajectory format (draft 2020-12), generated from its declaration;
 * `schema/trajectory-v1.schema.json` is this, written by `npm run schema`. Fields a reader does
 * not know are allowed, as the reader allows them. A free value may be written as JSON text
 * under `<key>Json` instead (one or the other), which the schema says too.
 */
function trajectoryJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(trajectoryFormat, {
    target: 'draft-2020-12',
    io: 'input',
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema instanceof z.ZodObject) allowJsonText(zodSchema, jsonSchema as ObjectSchema);
    },
  }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return { $schema, $id: SCHEMA_ID, ...rest };
}

interface ObjectSchema {
  properties?: Record<string, unknown>;
  required?: string[];
  allOf?: unknown[];
}

/** For each free field of a mapping, its `<key>Json` form: JSON text, in place of the value. */
function allowJsonText(schema: z.ZodObject, json: ObjectSchema): void {
  const plan = planOf(schema);
  if (plan.kind !== 'object' || json.properties === undefined) return;
  const properties: Record<string, unknown> = {};
  const eitherForm: unknown[] = [];
  for (const [key, property] of Object.entries(json.properties)) {
    properties[key] = property;
    const field = plan.fields.find((f) => f.key === key);
    if (field?.free !== true) continue;
    const jsonKey = `${key}Json`;
    const description = `\`${key}\` as JSON text, for a value nested too deep for YAML.`;
    properties[jsonKey] = { type: 'string', contentMediaType: 'application/json', description };
    if (json.required?.includes(key)) {
      json.required = json.required.filter((name) => name !== key);
      eitherForm.push({ oneOf: [present(key), present(jsonKey)] });
    } else {
      eitherForm.push({ not: present(key, jsonKey) });
    }
  }
  json.properties = properties;
  if (json.required?.length === 0) delete json.required;
  if (eitherForm.length > 0) json.allOf = [...(json.allOf ?? []), ...eitherForm];
}

/** "These fields are there", in a form strict validators accept (each required field also declared). */
function present(...keys: string[]): Record<string, unknown> {
  return { properties: Object.fromEntries(keys.map((key) => [key, true])), required: keys };
}

/** The schema as the shipped file holds it. */
export function trajectoryJsonSchemaText(): string {
  return `${JSON.stringify(trajectoryJsonSchema(), null, 2)}\n`;
}
