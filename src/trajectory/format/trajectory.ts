import { MATCH_LEVELS, type MatchLevel } from '../matchLevel.js';
import { NORMALISATION_NAMES } from '../normalisations.js';
import { recordedConversation, recordedSample, runFields } from './run.js';
import { flow, list, mapping, moment, oneOf, text, wholeFrom } from './values.js';

/** Where a fork's first turns came from: its parent file, the turn it was forked at, and what was forked. */
const forkOrigin = mapping({
  parent: text().meta({ description: "The parent trajectory file, relative to this file's folder." }),
  turn: wholeFrom(1).meta({
    description: "The turn forked at: the parent's first `turn` turns were served, the turns after ran live.",
  }),
  sample: wholeFrom(2)
    .meta({ description: "The parent's sample forked from, when not its first (the file's own run)." })
    .optional(),
  digest: text().meta({
    description:
      "A digest of what was forked: the parent's header (without its name, description and recording versions " +
      'and time) and its first `turn` turns. A replay reports a parent that no longer matches it.',
  }),
});

/**
 * The trajectory format, version 1: the one declaration. The TypeScript types, the reader's
 * checks, the writer's key order and the shipped JSON Schema are all derived from it.
 * The order of the fields here is the order in a file.
 */
export const trajectoryFormat = mapping({
  version: wholeFrom(1).meta({ description: "The format's major version; a reader refuses a newer one." }),
  name: text(),
  description: text().optional(),
  recordedAt: moment().meta({ description: 'When the run was recorded (ISO 8601).' }),
  legate: text().meta({ description: 'The legate version that recorded the run.' }),
  sdk: text().meta({ description: 'The @anthropic-ai/sdk version installed when it was recorded.' }).optional(),
  fork: forkOrigin
    .meta({
      description:
        "Present when the run is a fork: its first turns were served from another recording (the parent's), the " +
        'rest ran live. The file replays on its own, every turn of it.',
    })
    .optional(),
  boundary: oneOf(['http'])
    .meta({
      description:
        "Present (`http`) when legate/intercept recorded the run from a client's Messages API traffic, not from " +
        "legate's own runtime: turns and results are derived from the requests and responses.",
    })
    .optional(),
  client: flow(
    mapping({
      userAgent: text().optional(),
      sdk: text()
        .meta({ description: 'The SDK as its `x-stainless-lang` and `x-stainless-package-version` name it.' })
        .optional(),
      app: text().meta({ description: 'The `x-app` header (Claude Code sends `cli`).' }).optional(),
    }),
  )
    .meta({
      description:
        'At the HTTP boundary: the client that sent the traffic, as its first request names it (never legate).',
    })
    .optional(),
  normalised: flow(list(oneOf(NORMALISATION_NAMES)))
    .meta({
      description:
        'At the HTTP boundary: what was normalised in each request before it was kept, and is again in each ' +
        'request a replay compares (docs/intercept.md, Normalisations).',
    })
    .optional(),
  agent: runFields.agent,
  model: runFields.model,
  request: runFields.request,
  tools: runFields.tools,
  agents: runFields.agents,
  input: runFields.input,
  clock: list(moment())
    .meta({ description: "Every reading of the run's clock (`ctx.now()`), in order, served again at replay." })
    .optional(),
  match: oneOf(MATCH_LEVELS as readonly [MatchLevel, ...MatchLevel[]])
    .meta({ description: 'The match level a replay uses unless told otherwise (a fuzz finding uses `structure`).' })
    .optional(),
  serve: list(text())
    .meta({
      description:
        "Tools whose recorded results a replay serves instead of running them (a fuzz finding's planted outputs).",
    })
    .optional(),
  expect: mapping({ blocked: list(mapping({ id: text(), tool: text(), rule: text().optional() })) })
    .meta({ description: "What a replay must also see: calls that must be blocked (a fuzz finding's regression)." })
    .optional(),
  turns: runFields.turns,
  summary: runFields.summary,
  conversations: list(recordedConversation)
    .meta({
      description:
        'In a file recorded at the HTTP boundary, the conversations after the first (whose fields are the ' +
        "file's own): each one's requests are matched to it and served in order at replay.",
    })
    .optional(),
  samples: list(recordedSample)
    .meta({
      description:
        'The samples after the first, when the run was recorded more than once (`samples: k`): the first ' +
        "sample is the file's own `clock`, `turns`, `summary` and `conversations`. A replay replays each one.",
    })
    .optional(),
}).meta({
  title: 'legate trajectory, format version 1',
  description: 'One recorded agent run. Readers accept fields they do not know; see docs/trajectory-format.md.',
});
