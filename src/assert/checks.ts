import { quoteValue } from '../json/describeValue.js';
import type { CallView, RunView } from './runView.js';
import { describeTimeline } from './timeline.js';

/** Deep equality: vitest's own inside a matcher (asymmetric matchers work), `isDeepStrictEqual` elsewhere. */
export type Equals = (actual: unknown, expected: unknown) => boolean;

/** The result of one check: whether it passed, and what to say in either direction. */
export interface CheckOutcome {
  pass: boolean;
  message(negated: boolean): string;
  expected?: unknown;
  actual?: unknown;
}

/**
 * `what` reads after "expected the run to"; `but` says what happened instead (used when the
 * check fails) and `and` what did happen (used when a negated check fails).
 */
function outcome(view: RunView, pass: boolean, what: string, but: string, and: string, diff?: { expected: unknown; actual: unknown }): CheckOutcome {
  return {
    pass,
    message: (negated) => `expected the run ${negated ? 'not ' : ''}to ${what}, ${negated ? and : but}.\n\n${describeTimeline(view)}`,
    ...(diff ?? {}),
  };
}

const names = (calls: CallView[]) => calls.map((call) => call.name);
const quote = (name: string) => `'${name}'`;

export const SEQUENCE_MODES = ['exact', 'inOrder', 'anyOrder', 'atLeast', 'atMost'] as const;
export type SequenceMode = (typeof SEQUENCE_MODES)[number];

export const checks = {
  tainted(view: RunView, options: { source?: string } = {}): CheckOutcome {
    const pass = view.tainted && (options.source === undefined || view.taintSource === options.source);
    const what = options.source === undefined ? 'be tainted' : `be tainted by ${quote(options.source)}`;
    const but = view.tainted ? `but it was tainted by ${quote(view.taintSource ?? '?')}` : 'but no untrusted tool succeeded';
    return outcome(view, pass, what, but, `but it was tainted by ${quote(view.taintSource ?? '?')}`);
  },

  blocked(view: RunView, tool?: string, options: { rule?: string; source?: string } = {}): CheckOutcome {
    const matches = view.calls.filter(
      (call) =>
        call.outcome === 'blocked' &&
        (tool === undefined || call.name === tool) &&
        (options.rule === undefined || call.rule === options.rule) &&
        (options.source === undefined || call.source === options.source),
    );
    const detail = [options.rule === undefined ? '' : ` by rule ${quote(options.rule)}`, options.source === undefined ? '' : ` with source ${quote(options.source)}`].join('');
    const what = `have blocked ${tool === undefined ? 'a call' : quote(tool)}${detail}`;
    return outcome(view, matches.length > 0, what, 'but it did not', `but it blocked ${matches.map((c) => `${quote(c.name)} (${c.rule ?? '?'})`).join(', ')}`);
  },

  terminal(view: RunView): CheckOutcome {
    return outcome(view, view.stopReason === 'terminal', 'have ended through its terminal tool', `but it stopped with ${view.stopReason}`, 'but it did');
  },

  stopped(view: RunView, reason: string): CheckOutcome {
    return outcome(view, view.stopReason === reason, `have stopped with ${reason}`, `but it stopped with ${view.stopReason}`, 'but it did', { expected: reason, actual: view.stopReason });
  },

  handedOffTo(view: RunView, agents: string | readonly string[]): CheckOutcome {
    if (typeof agents !== 'string') {
      const pass = view.handoffs.length === agents.length && agents.every((agent, i) => view.handoffs[i] === agent);
      return outcome(view, pass, `have handed off along ${agents.join(' → ')}`, `but it handed off along ${view.handoffs.join(' → ') || '(no handoff)'}`, 'but it did', {
        expected: [...agents],
        actual: view.handoffs,
      });
    }
    const last = view.handoffs[view.handoffs.length - 1];
    return outcome(view, last === agents, `have handed off to ${quote(agents)}`, last === undefined ? 'but it made no handoff' : `but it ended with ${quote(last)}`, 'but it did');
  },

  calledTool(view: RunView, name: string, input: unknown, equals: Equals): CheckOutcome {
    const calls = view.calls.filter((call) => call.name === name);
    const pass = calls.some((call) => input === undefined || equals(call.input, input));
    const what = input === undefined ? `have called ${quote(name)}` : `have called ${quote(name)} with ${quoteValue(input)}`;
    const but = calls.length === 0 ? 'but it never called it' : `but it called it with ${calls.map((c) => quoteValue(c.input)).join(', ')}`;
    return outcome(view, pass, what, but, `but it called it ${calls.length} time${calls.length === 1 ? '' : 's'}`, input === undefined || calls.length === 0 ? undefined : { expected: input, actual: calls[0]!.input });
  },

  calledToolTimes(view: RunView, name: string, times: number): CheckOutcome {
    const count = view.calls.filter((call) => call.name === name).length;
    return outcome(view, count === times, `have called ${quote(name)} ${times} time${times === 1 ? '' : 's'}`, `but it called it ${count} time${count === 1 ? '' : 's'}`, 'but it did', {
      expected: times,
      actual: count,
    });
  },

  toolSequence(view: RunView, expected: readonly string[], mode: SequenceMode = 'exact'): CheckOutcome {
    const actual = names(view.calls);
    const pass = sequenceMatches(actual, expected, mode);
    const modeWords: Record<SequenceMode, string> = {
      exact: 'exactly',
      inOrder: 'in this order (others allowed between)',
      anyOrder: 'in any order, and no others',
      atLeast: 'at least',
      atMost: 'only tools from',
    };
    return outcome(view, pass, `have called ${modeWords[mode]} [${expected.join(', ')}]`, `but it called [${actual.join(', ')}]`, `but it called [${actual.join(', ')}]`, {
      expected: [...expected],
      actual,
    });
  },

  plannedEffect(view: RunView, tool: string, input: unknown, equals: Equals): CheckOutcome {
    const planned = view.calls.filter((call) => call.outcome === 'planned' && call.name === tool);
    const pass = planned.some((call) => input === undefined || equals(call.input, input));
    return outcome(view, pass, `have planned an effect of ${quote(tool)}${input === undefined ? '' : ` with ${quoteValue(input)}`}`, planned.length === 0 ? 'but it planned none' : 'but its input differed', 'but it did');
  },

  suspended(view: RunView): CheckOutcome {
    const pending = view.calls.filter((call) => call.outcome === 'suspended').map((c) => quote(c.name));
    return outcome(view, view.stopReason === 'suspended', 'be suspended for approval', `but it stopped with ${view.stopReason}`, `but it waits for approval of ${pending.join(', ')}`);
  },

  invalidArgument(view: RunView, tool: string, options: { argument?: string; code?: string } = {}): CheckOutcome {
    const matches = view.calls.filter(
      (call) => call.outcome === 'invalid' && call.name === tool && (options.argument === undefined || call.argument === options.argument) && (options.code === undefined || call.code === options.code),
    );
    const detail = [options.argument === undefined ? '' : ` argument ${quote(options.argument)}`, options.code === undefined ? '' : ` (${options.code})`].join('');
    return outcome(view, matches.length > 0, `have refused an invalid${detail} for ${quote(tool)}`, 'but the binder refused no such call', 'but it did');
  },

  noToolFailures(view: RunView): CheckOutcome {
    const failed = view.calls.filter((call) => call.outcome === 'error');
    return outcome(view, failed.length === 0, 'have no tool failures', `but ${failed.map((c) => quote(c.name)).join(', ')} failed`, 'but no tool failed');
  },

  complete(view: RunView): CheckOutcome {
    const complete = ['end_turn', 'stop_sequence', 'terminal'].includes(view.stopReason);
    return outcome(view, complete, 'be complete (not cut off, refused, suspended or out of turns)', `but it stopped with ${view.stopReason}`, `but it ended normally with ${view.stopReason}`);
  },

  usageBelow(view: RunView, limits: { inputTokens?: number; outputTokens?: number }): CheckOutcome {
    const over = (['inputTokens', 'outputTokens'] as const).filter((key) => limits[key] !== undefined && view.usage[key] >= limits[key]!);
    const wanted = (['inputTokens', 'outputTokens'] as const).filter((key) => limits[key] !== undefined).map((key) => `${key} below ${limits[key]}`);
    return outcome(view, over.length === 0, `have used ${wanted.join(' and ')}`, `but it used ${over.map((key) => `${view.usage[key]} ${key}`).join(' and ')}`, `but it used ${view.usage.inputTokens} inputTokens and ${view.usage.outputTokens} outputTokens`);
  },
};

function sequenceMatches(actual: readonly string[], expected: readonly string[], mode: SequenceMode): boolean {
  const counts = (list: readonly string[]) => list.reduce((map, name) => map.set(name, (map.get(name) ?? 0) + 1), new Map<string, number>());
  switch (mode) {
    case 'exact':
      return actual.length === expected.length && actual.every((name, i) => name === expected[i]);
    case 'inOrder': {
      let next = 0;
      for (const name of actual) if (name === expected[next]) next++;
      return next === expected.length;
    }
    case 'anyOrder': {
      const a = counts(actual);
      const e = counts(expected);
      return a.size === e.size && [...e].every(([name, n]) => a.get(name) === n);
    }
    case 'atLeast': {
      const a = counts(actual);
      return [...counts(expected)].every(([name, n]) => (a.get(name) ?? 0) >= n);
    }
    case 'atMost':
      return actual.every((name) => expected.includes(name));
  }
}
