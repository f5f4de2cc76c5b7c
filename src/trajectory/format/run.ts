import type * as z from 'zod';
import type { ApiUsage, ResponseContainer, StopDetails } from '../../messages/types.js';
import { API_STOP_REASONS } from '../../messages/types.js';
import {
  REQUIRED_USAGE_COUNTERS,
  USAGE_BREAKDOWNS,
  USAGE_COUNTERS,
  type UsageCounter,
} from '../../messages/usageCounters.js';
import { recordedBlock, recordedInput, recordedResultContent } from './blocks.js';
import { recordedAgents, recordedRequest, recordedTools } from './header.js';
import {
  count,
  either,
  flag,
  flow,
  free,
  list,
  mapping,
  oneOf,
  openMapping,
  text,
  typedAs,
  wholeFrom,
} from './values.js';

/** A run as it happened, turn by turn: the file's own, or a sub-agent's recorded under its tool call. */

/**
 * A response's usage as files recorded it before the API's report was kept whole: four counters,
 * by legate's names. Still read (and written back as it was read).
 */
const legacyUsage = mapping({
  input: count(),
  output: count(),
  cacheCreation: count().optional(),
  cacheRead: count().optional(),
});

/** A usage breakdown (`cache_creation`, ...): its counters checked, any other field kept. */
const breakdown = (counters: UsageCounter[]) =>
  openMapping(Object.fromEntries(counters.map((counter) => [apiName(counter), count().nullable().optional()])))
    .nullable()
    .optional();
const apiName = (counter: UsageCounter) => USAGE_COUNTERS[counter][USAGE_COUNTERS[counter].length - 1]!;
const countersIn = (part: string | undefined) =>
  (Object.keys(USAGE_COUNTERS) as UsageCounter[]).filter((counter) =>
    USAGE_COUNTERS[counter][1] === undefined ? part === undefined : USAGE_COUNTERS[counter][0] === part,
  );

/** The API's usage report, whole and in its own names: every field as it came, zeros and nulls included. */
const reportedUsage = typedAs<ApiUsage>(
  openMapping({
    ...Object.fromEntries(
      countersIn(undefined).map((counter) => [
        apiName(counter),
        REQUIRED_USAGE_COUNTERS.includes(counter) ? count() : count().nullable().optional(),
      ]),
    ),
    ...Object.fromEntries(USAGE_BREAKDOWNS.map((part) => [part, breakdown(countersIn(part))])),
    service_tier: text().nullable().optional(),
  }),
);

/** A response's usage: the API's report, as it came; or, in older files, legate's four counters. */
export const recordedUsage = flow(
  free(
    either([reportedUsage, legacyUsage], 'a usage report with input_tokens and output_tokens').meta({
      description:
        "The response's usage as the API reported it (older files: input, output, cacheCreation, cacheRead).",
    }),
  ),
);

/** The run's usage totals, summed over every model call (sub-agents' included). Absent counters are 0. */
export const recordedTotals = flow(
  mapping({
    input: count(),
    output: count(),
    cacheCreation: count().optional(),
    cacheRead: count().optional(),
    cacheCreation5m: count().optional(),
    cacheCreation1h: count().optional(),
    webSearchRequests: count().optional(),
    webFetchRequests: count().optional(),
    thinking: count().optional(),
  }),
);

/**
 * Which of the run's summed counters each field of the summary's usage holds. A counter other
 * than `input` and `output` is written when it is not 0.
 */
export const TOTALS_COUNTERS = {
  input: 'inputTokens',
  output: 'outputTokens',
  cacheCreation: 'cacheCreationInputTokens',
  cacheRead: 'cacheReadInputTokens',
  cacheCreation5m: 'cacheCreation5mInputTokens',
  cacheCreation1h: 'cacheCreation1hInputTokens',
  webSearchRequests: 'webSearchRequests',
  webFetchRequests: 'webFetchRequests',
  thinking: 'thinkingTokens',
} as const satisfies Record<keyof z.output<typeof recordedTotals>, UsageCounter>;

/** What happened to a tool call. `blocked`, `planned` and `suspended` come from the safety layer. */
export const RECORDED_OUTCOMES = ['ok', 'error', 'invalid', 'blocked', 'planned', 'suspended'] as const;

export const recordedResponse = mapping({
  id: text(),
  model: text(),
  stopReason: oneOf(API_STOP_REASONS, `null or one of ${API_STOP_REASONS.join(', ')}`).nullable(),
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
  errorClass: text().meta({ description: "For a tool failure: the error's class." }).optional(),
  rule: text()
    .meta({ description: 'For `blocked`: the guard rule that refused the call; for `planned`: `shadow`.' })
    .optional(),
  source: text()
    .meta({ description: 'For a call blocked by taint: the untrusted tool whose content entered the conversation.' })
    .optional(),
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
});

export const recordedHandoff = mapping({ from: text(), to: text(), reason: text().optional(), turn: wholeFrom(1) });

export const recordedSummary = mapping({
  stopReason: text(),
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
