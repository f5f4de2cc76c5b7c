import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadTrajectory } from '../../src/index.js';
import { conversationAndCounts, conversationBefore } from '../../src/trajectory/conversation.js';

// A replay builds the recorded conversation once, with each turn's share of it (conversationAndCounts): held to the
// conversation each turn was asked for (conversationBefore), turn by turn, on every file of the shipped corpus.
describe('conversationAndCounts', () => {
  const files = readdirSync('trajectories').filter((name) => name.endsWith('.yaml'));

  it('gives, for every turn of every corpus file, the conversation that turn was asked for', () => {
    expect(files.length).toBeGreaterThan(10);
    let turns = 0;
    for (const name of files) {
      const trajectory = loadTrajectory(`trajectories/${name}`);
      const { conversation, counts } = conversationAndCounts(trajectory);
      expect(counts).toHaveLength(trajectory.turns.length);
      counts.forEach((count, i) => {
        expect(conversation.slice(0, count), `${name}, turn ${i + 1}`).toEqual(conversationBefore(trajectory, i + 1));
        turns++;
      });
      expect(conversation).toEqual(conversationBefore(trajectory, trajectory.turns.length + 1));
    }
    expect(turns).toBeGreaterThan(files.length);
  });
});
