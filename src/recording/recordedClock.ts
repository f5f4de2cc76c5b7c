import type { Trajectory } from '../trajectory/types.js';

/** Wraps a clock so every reading is kept, in order, for the recording. */
export function recordingClock(clock: () => Date): { now: () => Date; readings: string[] } {
  const readings: string[] = [];
  return {
    readings,
    now: () => {
      const time = clock();
      readings.push(time.toISOString());
      return new Date(time.getTime());
    },
  };
}

/**
 * Serves a recording's clock readings in order, so a tool sees the times it saw when recorded.
 * Past the last reading (the code now reads the clock more often), the last one repeats; with
 * none, the time of the recording.
 */
export function recordedClock(trajectory: Trajectory): () => Date {
  const readings = trajectory.clock ?? [];
  let next = 0;
  return () => {
    const reading = readings[Math.min(next, readings.length - 1)] ?? trajectory.recordedAt;
    next++;
    return new Date(reading);
  };
}
