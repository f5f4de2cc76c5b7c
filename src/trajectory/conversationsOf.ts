import { runFields } from './format/run.js';
import type { Trajectory } from './types.js';

/**
 * Every conversation a file holds, each as a trajectory of its own: the file itself (its first
 * conversation), then each of its `conversations` (a recording at the HTTP boundary of several
 * clients, or of concurrent requests) with the file's metadata around it.
 */
export function conversationsOf(trajectory: Trajectory): Trajectory[] {
  const { conversations, ...first } = trajectory;
  if (conversations === undefined) return [first];
  const metadata: Partial<Trajectory> = { ...first };
  for (const key of Object.keys(runFields)) delete metadata[key as keyof Trajectory];
  return [first, ...conversations.map((conversation) => ({ ...metadata, ...conversation }) as Trajectory)];
}
