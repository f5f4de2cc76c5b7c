import { runFields } from './format/run.js';
import type { RecordedConversation, Trajectory } from './types.js';

/**
 * Every conversation a file holds, each as a trajectory of its own: the file itself (its first
 * conversation), then each of its `conversations` (a recording at the HTTP boundary of several
 * clients, or of concurrent requests) with the file's metadata around it.
 */
export function conversationsOf(trajectory: Trajectory): Trajectory[] {
  const { conversations, ...first } = trajectory;
  if (conversations === undefined) return [first];
  const metadata = metadataOf(first);
  return [first, ...conversations.map((conversation) => ({ ...metadata, ...conversation }) as Trajectory)];
}

/** The inverse of conversationsOf: a file holding these conversations (at least one), in this order. */
export function withConversations(conversations: readonly Trajectory[]): Trajectory {
  const [first, ...others] = conversations.map(({ conversations: _none, ...conversation }) => conversation);
  if (others.length === 0) return first!;
  return { ...first!, conversations: others.map(runOf) };
}

/** A conversation's own fields, without the file's metadata. */
export function runOf(conversation: Trajectory): RecordedConversation {
  const run: Partial<RecordedConversation> = {};
  for (const key of Object.keys(runFields) as (keyof RecordedConversation)[])
    if (conversation[key] !== undefined) Object.assign(run, { [key]: conversation[key] });
  return run as RecordedConversation;
}

function metadataOf(trajectory: Trajectory): Partial<Trajectory> {
  const metadata: Partial<Trajectory> = { ...trajectory };
  for (const key of Object.keys(runFields)) delete metadata[key as keyof Trajectory];
  return metadata;
}
