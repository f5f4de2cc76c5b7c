// The config the `legate` command reads: which agent factory replays which trajectory.
// In your project, import from 'legate' instead of './src/index.js'.
import { defineConfig } from './src/index.js';
import { createCalculator } from './examples/calculator/agent.js';
import { createOrderDesk } from './examples/orders/agent.js';
import {
  createApprovingAssistant,
  createAssistant,
  createProvenanceAssistant,
  createSearchingAssistant,
} from './examples/payments/agent.js';
import { createFrontDesk, createShadowSupportDesk, createSupportDesk } from './examples/support/agent.js';
import { createTravelAgent } from './examples/travel/agent.js';
import { createTriage } from './examples/desk/agent.js';
import { createPlanner } from './examples/research/agent.js';
import { createTreasurer } from './examples/treasury/agent.js';

export default defineConfig({
  agents: {
    calculator: createCalculator,
    order_desk: createOrderDesk,
    assistant: createAssistant,
    provenance_assistant: createProvenanceAssistant,
    approving_assistant: createApprovingAssistant,
    searching_assistant: createSearchingAssistant,
    support_desk: createSupportDesk,
    support_desk_shadow: createShadowSupportDesk,
    front_desk: createFrontDesk,
    travel: createTravelAgent,
    triage: createTriage,
    planner: createPlanner,
    treasurer: createTreasurer,
  },
  trajectories: 'trajectories',
  // The shipped corpus is played by scripted models (examples/scenarios.ts); any other file gets legate's own advice.
  rerecord: (file) => (/^trajectories\/[^/]+\.yaml$/.test(file) ? 'npm run record:corpus' : undefined),
});
