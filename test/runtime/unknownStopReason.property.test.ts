import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  ScriptedTransport,
  defineTool,
  loadTrajectory,
  runTrajectory,
  serializeTrajectory,
  type AgentEvent,
  type ScriptedReply,
  type Transport,
} from '../../src/index.js';
import { API_STOP_REASONS } from '../../src/messages/knownValues.js';
import { conversationBreach } from '../support/apiConversation.js';
import { useTempDir } from '../support/tempDir.js';

/**
 * Any stop reason the API sends that this release does not know ends the run with it, as sent;
 * no tool call of that response runs; the recording holds it and replays to the same run.
 */

const tempDir = useTempDir();

/**
 * A stop reason this release does not know: any string but the API's known ones and the names
 * legate gives its own stops (an API reason spelled like one of those would read as legate's).
 */
const LEGATE_OWN = ['context_window_exceeded', 'max_turns', 'terminal', 'suspended'];
const unknownReason = fc
  .oneof(
    fc.string(),
    // Strings YAML would read as something else if written bare.
    fc.constantFrom('null', '~', 'true', 'no', '123', '1e3', '- x', 'a: b', '"', ' padded ', 'two\nlines', '#'),
  )
  .filter((reason) => !(API_STOP_REASONS as readonly string[]).includes(reason) && !LEGATE_OWN.includes(reason));

const ran: string[] = [];
const tools = ['lookup', 'send_payment'].map((name) =>
  defineTool({
    name,
    description: `${name}.`,
    input: { type: 'object', properties: {} },
    privileged: name === 'send_payment',
    run: () => {
      ran.push(name);
      return 'done';
    },
  }),
);
const agent = (transport: Transport) => new Agent({ name: 'desk', model: 'claude-sonnet-5-5', tools, transport });

const content = fc.array(
  fc.oneof(
    fc.string({ minLength: 1, maxLength: 8 }).map((text) => ({ type: 'text' as const, text })),
    fc.constantFrom('lookup', 'send_payment').map((name) => ({ type: 'tool_use' as const, name, input: {} })),
  ),
  { maxLength: 3 },
);

describe('a stop reason this release does not know', () => {
  it('ends the run with it, as sent, and runs none of its calls; the conversation stays valid (property)', async () => {
    await fc.assert(
      fc.asyncProperty(unknownReason, content, async (stopReason, blocks) => {
        ran.length = 0;
        const transport = new ScriptedTransport([
          { content: blocks, stopReason },
          { content: [], stopReason: 'end_turn' },
        ]);
        const events: AgentEvent[] = [];
        const desk = agent(transport);
        const result = await desk.run('Go.', { onEvent: (event) => events.push(event) });

        expect(result.stopReason).toBe(stopReason);
        expect(result.responses[0]!.stop_reason).toBe(stopReason);
        expect(events.at(-1)).toEqual(expect.objectContaining({ type: 'run_finished', stopReason }));
        expect(ran).toEqual([]);
        const calls = blocks.filter((block) => block.type === 'tool_use').length;
        expect(result.toolCalls.map((call) => call.outcome)).toEqual(Array(calls).fill('incomplete'));
        await desk.run('And now?', { history: result.messages });
        expect(conversationBreach(transport.requests[1]!)).toBeUndefined();
      }),
      { numRuns: 100 },
    );
  });

  it('is recorded as sent, rewritten to the same bytes, and replayed to the same run (property)', async () => {
    await fc.assert(
      fc.asyncProperty(unknownReason, content, async (stopReason, blocks) => {
        const file = join(tempDir(), 'run.yaml');
        const served: ScriptedReply[] = [{ content: blocks, stopReason }];
        const recorded = await runTrajectory({
          file,
          config: false,
          agent,
          input: 'Go.',
          mode: 'record',
          transport: () => new ScriptedTransport(served),
          report: false,
        });
        const trajectory = loadTrajectory(file);
        expect(trajectory.turns[0]!.response.stopReason).toBe(stopReason);
        expect(trajectory.summary.stopReason).toBe(stopReason);
        expect(serializeTrajectory(trajectory)).toBe(readFileSync(file, 'utf8'));

        const replayed = await runTrajectory({ file, config: false, agent, mode: 'replay' });
        expect(replayed.result.stopReason).toBe(stopReason);
        expect(replayed.result.responses).toEqual(recorded.result.responses);
        expect(replayed.result.toolCalls).toEqual(recorded.result.toolCalls);
      }),
      { numRuns: 40 },
    );
  });
});
