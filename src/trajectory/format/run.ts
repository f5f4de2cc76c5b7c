import type * as z from 'zod';
import type { ResponseContainer, StopDetails } from '../../messages/types.js';
import { API_STOP_REASONS } from '../../messages/knownValues.js';
import { recordedBlock, recordedInput, recordedResultContent } from './blocks.js';
import { recordedAgents, recordedRequest, recordedTools } from './header.js';
import { recordedTotals, recordedUsage } from './usage.js';
import {
  count,
  either,
  real,
  flag,
  flow,
  free,
  list,
  mapping,
  moment,
  oneOf,
  openMapping,
  text,
  typedAs,
  wholeFrom,
} from './values.js';

/** A run as it happened, turn by turn: the file's own, or a sub-agent's recorded under its tool call. */

/**
 * What happened to a tool call. `blocked`, `planned` and `suspended` come from the safety layer;
 * `incomplete`: its response was cut off by max_tokens, so it was not run.
 */
export const RECORDED_OUTCOMES = ['ok', 'error', 'invalid', 'blocked', 'planned', 'suspended', 'incomplete'] as const;

export const recordedResponse = mapping({
  id: text(),
  model: text(),
  stopReason: text('null or a string')
    .meta({
      description:
        'Why the response stopped, as the API said it: one of the reasons this release knows (the examples), ' +
        'or one the API added since, kept as sent.',
      examples: [...API_STOP_REASONS],
    })
    .nullable(),
  stopSequence: text().optional(),
  stopDetails: free(
    typedAs<StopDetails>(
      openMapping({ type: text() }).meta({ description: 'Why the request was refused, as the API said it.' }),
    ),
  )
    .nullable()
    .optional(),
  usage: recordedUsage,
  container: free(
    typedAs<ResponseContainer>(
      openMapping({ id: text(), expires_at: text() }).meta({
        description: 'The code-execution container the response ran in, as the API sent it.',
      }),
    ),
  )
    .nullable()
    .optional(),
  contextManagement: free(
    openMapping({}).meta({ description: 'What context management changed in the request, as the API reported it.' }),
  )
    .nullable()
    .optional(),
  incompleteToolUse: mapping({
    index: count(),
    partialJson: text().meta({ description: 'The JSON text of the input as far as it arrived.' }),
  })
    .meta({ description: 'The tool_use block (by index) a max_tokens stop cut off mid-stream.' })
    .optional(),
  content: list(recordedBlock),
});

export const recordedApproval = mapping({ id: text(), approve: flag(), reason: text().optional() });

export const recordedResult = mapping({
  id: text().meta({ description: 'The tool_use id it answers.' }),
  tool: text(),
  outcome: oneOf(RECORDED_OUTCOMES),
  code: text()
    .meta({ description: "For a refusal: the binder's code (`invalid_type`, ...) or `unknown_tool`." })
    .optional(),
  argument: text().optional(),
  path: flow(list(either([text(), count()], 'a string or a whole number of at least 0'))).optional(),
  errorClass: text()
    .meta({ description: "For a tool that threw: the error's class (absent for an error result it returned)." })
    .optional(),
  rule: text()
    .meta({ description: 'For `blocked`: the guard rule that refused the call; for `planned`: `shadow`.' })
    .optional(),
  source: text()
    .meta({ description: 'For a call blocked by taint: the untrusted tool whose content entered the conversation.' })
    .optional(),
  untraced: flow(
    mapping({
      argument: text(),
      value: either([text(), real()], 'a string or a number'),
      foundIn: list(text()),
    }).meta({
      description:
        'For a call blocked by taint after argument provenance: the sensitive argument traced to no trusted text, ' +
        'its value, and the tools whose outside-authored text holds it.',
    }),
  ).optional(),
  redactedInput: flag()
    .meta({
      description:
        'Present (true) when a redaction changed the input of this call when it was recorded: a replay serves ' +
        'this result instead of running the tool with the placeholder.',
    })
    .optional(),
  withheld: flow(
    mapping({ length: count(), shown: count() }).meta({
      description: 'Characters the tool produced, where maxResultLength withheld some.',
    }),
  ).optional(),
  content: recordedResultContent,
  /** For a sub-agent's call: its own conversation, recorded where it happened. */
  get subRun(): z.ZodOptional<typeof recordedSubRun> {
    return recordedSubRun.optional();
  },
});

export const recordedTurn = mapping({
  agent: text()
    .meta({ description: 'The agent that made this turn, on every turn of a run with more than one agent.' })
    .optional(),
  response: recordedResponse,
  approvals: list(recordedApproval)
    .meta({ description: "Decisions a person made on this response's calls, when the run stopped for approval." })
    .optional(),
  results: list(recordedResult)
    .meta({ description: "The answers to this response's tool calls, in block order." })
    .optional(),
  events: free(list(typedAs<Record<string, unknown>>(openMapping({ type: text() }))))
    .meta({
      description:
        'For a response the API streamed, recorded at the HTTP boundary: each server-sent event as it came, ' +
        'served again at replay.',
    })
    .optional(),
});

const recordedHandoff = mapping({ from: text(), to: text(), reason: text().optional(), turn: wholeFrom(1) });

export const recordedSummary = mapping({
  stopReason: text().meta({
    description:
      "Why the run ended, as the run's `AgentResult.stopReason` says it (a stop reason the API added since: as sent).",
  }),
  turns: count(),
  handoffs: list(recordedHandoff).meta({ description: 'Every transfer of the conversation, in order.' }).optional(),
  tainted: flag()
    .meta({ description: "Present (true) when an untrusted tool's content entered the conversation." })
    .optional(),
  taintSource: text().optional(),
  usage: recordedTotals,
});

/** The fields of a run, in the order a file holds them; the file adds its metadata around them. */
export const runFields = {
  agent: text().meta({ description: 'The agent that ran, by the name the config exports its factory under.' }),
  model: text().meta({ description: "The model id the API answered with (the first response's)." }),
  request: recordedRequest,
  tools: recordedTools,
  agents: recordedAgents.optional(),
  input: recordedInput,
  turns: list(recordedTurn),
  summary: recordedSummary,
};

/** A sub-agent's run inside a tool call: a trajectory of its own, without the file's metadata. */
export const recordedSubRun: z.ZodObject<typeof runFields> = mapping(runFields).meta({
  id: 'subRun',
  description: "A sub-agent's run inside a tool call, with the fields of a trajectory minus its metadata.",
});

/** Another conversation recorded at the HTTP boundary in the same file: another client, or concurrent requests. */
export const recordedConversation: z.ZodObject<typeof runFields> = mapping(runFields).meta({
  id: 'conversation',
  description:
    'A further conversation intercepted in the same recording (another client, or requests made concurrently), ' +
    'with the fields of a trajectory minus its metadata.',
});

/**
 * Another sample of the same run in the same file: the agent run again on the same input, live. The file's header
 * (agent, model, request, tools, input) is each sample's; a sample holds what differs from run to run.
 */
export const recordedSample = mapping({
  clock: list(moment())
    .meta({ description: "This sample's readings of the run's clock, as `clock` is the first's." })
    .optional(),
  turns: runFields.turns,
  summary: runFields.summary,
  conversations: list(recordedConversation)
    .meta({ description: "At the HTTP boundary: this sample's conversations after its first, as `conversations`." })
    .optional(),
}).meta({
  id: 'sample',
  description:
    'A further sample of the run (the same input, recorded again live), with the fields that differ from one ' +
    "run to the next; the file's header holds for each.",
});
