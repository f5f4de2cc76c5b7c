import { canonicalJson } from '../json/canonicalJson.js';
import { firstDifference } from '../json/firstDifference.js';
import { UsageError } from '../errors/UsageError.js';
import { conversationsOf, withConversations } from '../trajectory/conversationsOf.js';
import type { Trajectory } from '../trajectory/types.js';

/** What every sample of a file takes from its header (see samplesOf): how its first conversation starts, and more. */
const SHARED = ['model', 'request', 'tools', 'agents', 'input', 'normalised'] as const;

const sharedOf = (trajectory: Trajectory) => Object.fromEntries(SHARED.map((key) => [key, trajectory[key] ?? null]));

/**
 * A later sample of a recording at the HTTP boundary, with its conversations in the order that puts first the one
 * the file's header describes: the one that starts as the first sample's first conversation does (its model, request
 * parameters, tools and first message, and the normalisations applied), the others after it in their order.
 * Compared as they would be saved (`prepared`: redacted), so a redacted value may vary from sample to sample.
 * Concurrent conversations start in any order on each run; a sample none of whose conversations starts so cannot
 * be replayed under the file's header, and is refused.
 */
export function underSharedHeader(
  first: Trajectory,
  sample: Trajectory,
  number: number,
  prepared: (trajectory: Trajectory) => Trajectory,
): Trajectory {
  const wanted = canonicalJson(sharedOf(prepared(first)));
  const conversations = conversationsOf(sample);
  const starts = conversationsOf(prepared(sample)).map((conversation) => sharedOf(conversation));
  const at = starts.findIndex((start) => canonicalJson(start) === wanted);
  if (at === 0) return sample;
  if (at === -1) {
    const where = firstDifference(sharedOf(prepared(first)), starts[0])?.path ?? '';
    const conversation = conversations.length === 1 ? 'its conversation starts' : 'none of its conversations starts';
    throw new UsageError(
      'intercept_unsupported',
      `The intercepted traffic cannot be recorded as samples of one file: ${conversation} as sample 1's first ` +
        `conversation does (sample ${number}'s first conversation differs at ${where || 'its start'}). The samples ` +
        "of a file are runs of the same code on the same input and share the file's header: give the body the same " +
        'input on every run, or declare a redaction for what varies (docs/intercept.md, "Samples at the boundary").',
    );
  }
  return withConversations([conversations[at]!, ...conversations.filter((_, i) => i !== at)]);
}
