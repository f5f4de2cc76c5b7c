import { count, flag, flow, list, mapping, namedMappings, real, text } from './values.js';

/** What a run's requests carried: the parameters, and the tools offered. */

export const recordedRequest = mapping({
  model: text().meta({ description: 'The model, as asked for.' }),
  maxTokens: count(),
  temperature: real().optional(),
  thinking: flow(mapping({ budgetTokens: count() })).optional(),
  system: text().optional(),
}).meta({ description: 'The request parameters the agent sent on every turn.' });

export const recordedTool = mapping({
  name: text(),
  untrusted: flag().optional(),
  privileged: flag().optional(),
  policy: text().optional(),
  digest: text()
    .regex(/^sha256:[0-9a-f]+$/, { error: () => 'a digest: sha256: and hexadecimal digits' })
    .meta({ description: 'Digest of the tool as the model was shown it (name, description, input schema).' }),
});

export const recordedTools = list(recordedTool).meta({ description: 'The tools offered to the model.' });

export const recordedAgents = namedMappings(mapping({ request: recordedRequest, tools: recordedTools })).meta({
  description: 'Other agents that made turns after a handoff, each with what its requests carried.',
});
