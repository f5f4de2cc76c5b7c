import {
  count,
  either,
  oneOf,
  flag,
  flow,
  free,
  list,
  mapping,
  namedMappings,
  openMapping,
  real,
  text,
  typedAs,
  wholeFrom,
} from './values.js';
import type * as z from 'zod';
import {
  RECORDED_POSTURE,
  type PostureKind,
  type PostureKinds,
  type RecordedPostureField,
} from '../../tools/postureFields.js';

/** What a run's requests carried: the parameters, and the tools offered. */

export const recordedRequest = mapping({
  model: text().meta({ description: 'The model, as asked for.' }),
  maxTokens: count(),
  temperature: real().optional(),
  thinking: flow(
    either([mapping({ budgetTokens: count() }), mapping({ type: oneOf(['adaptive']) })], 'a mapping').meta({
      description: 'Extended thinking: its token budget, or adaptive.',
    }),
  ).optional(),
  toolChoice: flow(
    mapping({
      type: oneOf(['auto', 'any', 'tool', 'none']),
      name: text().optional(),
      disableParallelToolUse: flag().optional(),
    }),
  ).optional(),
  stopSequences: flow(list(text())).optional(),
  cacheControl: flow(
    mapping({ at: oneOf(['auto', 'prefix']), ttl: oneOf(['5m', '1h']).optional() }).meta({
      description: 'Prompt caching: the top-level breakpoint (`auto`), or one on the system prompt and last tool.',
    }),
  ).optional(),
  metadata: flow(mapping({ userId: text() })).optional(),
  container: text()
    .meta({ description: 'The code execution container the agent set; later turns reuse the one a response named.' })
    .optional(),
  system: text().optional(),
  output: free(
    typedAs<Record<string, unknown>>(
      openMapping({}).meta({
        description:
          'The JSON Schema of the structured answer asked for (output_config.format), as the API was sent it.',
      }),
    ),
  ).optional(),
}).meta({ description: 'The request parameters the agent sent on every turn.' });

/** What a tool declared about its effects, with MCP's defaults filled in for what it left out. */
const recordedAnnotations = mapping({
  title: text().optional(),
  readOnly: flag(),
  destructive: flag(),
  idempotent: flag(),
  openWorld: flag(),
});

/** The schema of each kind of posture field, as a header writes a value of it (`flow`: on one line). */
const POSTURE_SCHEMAS = {
  flag: () => flag(),
  name: () => text(),
  cap: () => wholeFrom(1),
  annotations: () => flow(recordedAnnotations),
  paths: () => flow(list(text())),
  taintPolicy: () => oneOf(['approve']),
  nameMap: () => flow(namedMappings(text())),
} satisfies { [K in PostureKind]: () => z.ZodType<PostureKinds[K]> };

type PostureShape<Where> = {
  [F in Extract<RecordedPostureField, { header: Where }> as F['name']]: z.ZodOptional<
    ReturnType<(typeof POSTURE_SCHEMAS)[F['kind']]>
  >;
};

/** The posture fields the header writes at one place in a tool, in the table's order (`tools/postureFields.ts`). */
function postureShape<Where extends RecordedPostureField['header']>(where: Where): PostureShape<Where> {
  const shape: Record<string, z.ZodType> = {};
  for (const field of RECORDED_POSTURE) {
    if (field.header !== where) continue;
    const schema: z.ZodType = POSTURE_SCHEMAS[field.kind]();
    shape[field.name] = ('description' in field ? schema.meta({ description: field.description }) : schema).optional();
  }
  return shape as PostureShape<Where>;
}

/**
 * A tool as offered: its safety posture first (short, what a reviewer looks for), then what the
 * model was shown. Files recorded before `inputSchema` was kept hold only name, flags and digest.
 */
export const recordedTool = mapping({
  name: text(),
  type: text()
    .meta({ description: 'For a server tool (the API runs it, e.g. web search): its type, e.g. web_search_20250305.' })
    .optional(),
  ...postureShape('posture'),
  digest: text()
    .regex(/^sha256:[0-9a-f]+$/, { error: () => 'a digest: sha256: and hexadecimal digits' })
    .meta({ description: 'Digest of the tool as the model was shown it (name, description, input schema).' }),
  description: text().meta({ description: 'The description the model was shown.' }).optional(),
  inputSchema: free(
    typedAs<Record<string, unknown>>(
      openMapping({}).meta({ description: 'The JSON Schema of its input, as the model was shown it.' }),
    ),
  ).optional(),
  ...postureShape('afterSchema'),
});

export const recordedTools = list(recordedTool).meta({ description: 'The tools offered to the model.' });

export const recordedAgents = namedMappings(mapping({ request: recordedRequest, tools: recordedTools })).meta({
  description: 'Other agents that made turns after a handoff, each with what its requests carried.',
});
