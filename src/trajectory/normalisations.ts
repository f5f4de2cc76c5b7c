import { isPlainObject } from '../json/jsonValue.js';
import type { Message, MessagesRequest } from '../messages/types.js';
import type { Redaction } from './redaction.js';
import { CLAUDE_CODE_ENVIRONMENT } from './claudeCodeEnvironment.js';

/**
 * What a recording at the HTTP boundary changes in each request before it is kept or compared, where the client
 * sends something that differs run to run but means nothing to the conversation. A file names the ones applied
 * (`normalised:`), and a replay applies the same ones to each request it compares: the one table, from which the
 * format's names and the defaults derive (docs/intercept.md, Normalisations, says each in words; a doc test holds
 * its rows and defaults to this table).
 */
const NORMALISATIONS = {
  // Breakpoints on the messages' blocks: a caching hint, not content; Claude Code moves its one to the newest
  // message every turn, so an earlier message would differ from the one sent before.
  cacheControl: { request: withoutMessageCacheControl, redactions: [] as readonly Redaction[], byDefault: 'always' },
  // `metadata.user_id` as its shape: clients put a device id and a random session id there, new on every run.
  userId: { request: withUserIdShape, redactions: [] as readonly Redaction[], byDefault: 'always' },
  // Claude Code's environment reminder (working directory, platform, shell, OS version, date), redacted: a replay
  // from another folder or day must still match.
  claudeCodeEnvironment: {
    request: (request: MessagesRequest) => request,
    redactions: CLAUDE_CODE_ENVIRONMENT,
    byDefault: 'claude-code',
  },
} as const;

export type NormalisationName = keyof typeof NORMALISATIONS;

export const NORMALISATION_NAMES = Object.keys(NORMALISATIONS) as [NormalisationName, ...NormalisationName[]];

/** Which normalisations to apply: each on or off; an unnamed one takes its default. */
export type NormalisationChoice = Partial<Record<NormalisationName, boolean>>;

/**
 * The normalisations a recording applies: each as chosen, else its default (`always`, or `claude-code`: when the
 * traffic comes from Claude Code, which `fromClaudeCode` says). The one place the defaults are resolved.
 */
export function resolveNormalisations(choice: NormalisationChoice, fromClaudeCode: boolean): NormalisationName[] {
  return NORMALISATION_NAMES.filter((name) => {
    const chosen = choice[name];
    if (chosen !== undefined) return chosen;
    const byDefault: string = NORMALISATIONS[name].byDefault;
    return byDefault === 'always' || (byDefault === 'claude-code' && fromClaudeCode);
  });
}

/** A request with the named normalisations applied, the original untouched. */
export function normaliseRequest(request: MessagesRequest, names: readonly NormalisationName[]): MessagesRequest {
  return names.reduce((current, name) => NORMALISATIONS[name].request(current), request);
}

/** The redactions the named normalisations add to a recording's (and so to each request compared at replay). */
export function normalisationRedactions(names: readonly NormalisationName[]): Redaction[] {
  return names.flatMap((name) => NORMALISATIONS[name].redactions);
}

function withoutMessageCacheControl(request: MessagesRequest): MessagesRequest {
  if (!request.messages.some((message) => Array.isArray(message.content))) return request;
  return {
    ...request,
    messages: request.messages.map((message) =>
      Array.isArray(message.content)
        ? ({ ...message, content: message.content.map(withoutCacheControl) } as Message)
        : message,
    ),
  };
}

/** A block without its breakpoint, and the blocks of a tool result's content likewise. */
function withoutCacheControl(block: unknown): unknown {
  if (!isPlainObject(block)) return block;
  const { cache_control: _hint, ...rest } = block;
  if (Array.isArray(rest.content)) rest.content = rest.content.map(withoutCacheControl);
  return rest;
}

function withUserIdShape(request: MessagesRequest): MessagesRequest {
  const userId = request.metadata?.user_id;
  if (typeof userId !== 'string') return request;
  return { ...request, metadata: { ...request.metadata, user_id: userIdShape(userId) } };
}

/**
 * A user id as its shape: a JSON object's keys (`[user_id: {device_id, session_id}]`), else `[user_id]`. Two runs
 * of the same client give the same shape; a client that starts sending another kind of id does not.
 */
function userIdShape(userId: string): string {
  if (/^\[user_id(?:: \{[^}]*\})?\]$/.test(userId)) return userId;
  let parsed: unknown;
  try {
    parsed = JSON.parse(userId);
  } catch {
    return '[user_id]';
  }
  return isPlainObject(parsed) ? `[user_id: {${Object.keys(parsed).sort().join(', ')}}]` : '[user_id]';
}
