import { ScriptedTransport, reply, type MessagesRequest } from '../../src/index.js';

/**
 * A stand-in model whose answers vary with a seed, as a live model's vary from run to run: each transport it makes
 * (one per recorded sample) draws the next number of a small deterministic generator, and looks the account up
 * first when the draw is under `lookupRate`, else answers at once. `choices` says, per run made, whether it looked
 * up, so a test knows what each sample did without reading the file.
 */
export function seededModel(seed: number, lookupRate = 0.5) {
  const next = seededDraws(seed);
  const choices: boolean[] = [];
  const transport = () => {
    const lookup = next() < lookupRate;
    choices.push(lookup);
    return new ScriptedTransport((request: MessagesRequest, call: number) => {
      if (lookup && call === 1) return reply.toolUse('lookup', { account: 'acct-7' });
      const last = request.messages.at(-1);
      const looked = Array.isArray(last?.content) && last.content.some((b) => b.type === 'tool_result');
      return reply.text(looked ? 'Account acct-7 is open.' : 'I think the account is open.');
    });
  };
  return { transport, choices };
}

/** Numbers from 0 (included) to 1, drawn one by one from `seed`: xorshift32, so the same on every machine. */
export function seededDraws(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 2 ** 32;
  };
}
