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
export const recordedAnnotations = flow(
  mapping({
    title: text().optional(),
    readOnly: flag(),
    destructive: flag(),
    idempotent: flag(),
    openWorld: flag(),
  }).meta({ description: 'The annotations, present only when the tool declared some.' }),
);

/**
 * A tool as offered: its safety posture first (short, what a reviewer looks for), then what the
 * model was shown. Files recorded before `inputSchema` was kept hold only name, flags and digest.
 */
export const recordedTool = mapping({
  name: text(),
  type: text()
    .meta({ description: 'For a server tool (the API runs it, e.g. web search): its type, e.g. web_search_20250305.' })
    .optional(),
  untrusted: flag().optional(),
  privileged: flag().optional(),
  policy: text().optional(),
  compensatedBy: text().meta({ description: 'The tool that undoes it.' }).optional(),
  maxResultLength: wholeFrom(1)
    .meta({ description: 'Characters of output shown to the model before the rest is withheld, where capped.' })
    .optional(),
  annotations: recordedAnnotations.optional(),
  sensitive: flow(list(text()))
    .meta({ description: 'Argument paths a tainted run must trace to trusted text (argument provenance).' })
    .optional(),
  outsideAuthored: flow(list(text()))
    .meta({ description: 'Output field paths outsiders write; the rest of its JSON output is vouched for.' })
    .optional(),
  onTaint: oneOf(['approve'])
    .meta({ description: "A tainted run's call it does not clear waits for a person (its effective policy)." })
    .optional(),
  digest: text()
    .regex(/^sha256:[0-9a-f]+$/, { error: () => 'a digest: sha256: and hexadecimal digits' })
    .meta({ description: 'Digest of the tool as the model was shown it (name, description, input schema).' }),
  description: text().meta({ description: 'The description the model was shown.' }).optional(),
  inputSchema: free(
    typedAs<Record<string, unknown>>(
      openMapping({}).meta({ description: 'The JSON Schema of its input, as the model was shown it.' }),
    ),
  ).optional(),
  wireNames: flow(
    namedMappings(text()).meta({
      description:
        'Argument names the model was shown that the tool receives under other names (a name the Messages API ' +
        'refuses, such as DateSent< or filter[name]): each name shown, with the name the tool receives.',
    }),
  ).optional(),
});

export const recordedTools = list(recordedTool).meta({ description: 'The tools offered to the model.' });

export const recordedAgents = namedMappings(mapping({ request: recordedRequest, tools: recordedTools })).meta({
  description: 'Other agents that made turns after a handoff, each with what its requests carried.',
});
