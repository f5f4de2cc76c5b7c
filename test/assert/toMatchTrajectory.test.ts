import { beforeAll, describe, expect, it } from 'vitest';
import '../../src/assert/vitest.js';
import { createAssistant } from '../../examples/payments/agent.js';
import {
  Agent,
  ScriptedTransport,
  TrajectoryNotFoundError,
  UsageError,
  assertThat,
  defineTool,
  loadTrajectory,
  reply,
  runTrajectory,
  type AgentResult,
  type ReferenceCall,
  type UsageErrorCode,
} from '../../src/index.js';
import { caught, failureMessage as failure } from '../support/caught.js';

/** A live run whose model makes these calls, one a turn, of tools that take any object and answer "done". */
async function runMaking(calls: [tool: string, input: Record<string, unknown>][]): Promise<AgentResult> {
  const names = [...new Set(calls.map(([tool]) => tool))];
  const tools = names.map((name) =>
    defineTool({ name, description: `The ${name} tool.`, input: { type: 'object' }, run: () => 'done' }),
  );
  const transport = new ScriptedTransport([
    ...calls.map(([tool, input]) => reply.toolUse(tool, input)),
    reply.text('ok'),
  ]);
  return new Agent({ name: 'clerk', model: 'claude-haiku-4-5', tools, transport }).run('Do it.');
}

/** Runs a check that must refuse with a UsageError of this code; returns its message. */
function refusal(code: UsageErrorCode, check: () => unknown): string {
  const error = caught(check, UsageError);
  expect(error.code).toBe(code);
  return error.message;
}

// lookup {id: 1}, lookup {id: 2}, send_email {to, body}.
let run: AgentResult;
beforeAll(async () => {
  run = await runMaking([
    ['lookup', { id: 1 }],
    ['lookup', { id: 2, fields: ['name', 'email'] }],
    ['send_email', { to: 'ann@example.com', body: 'Hello', cc: { team: 'ops' } }],
  ]);
});

const lookup1 = { tool: 'lookup', input: { id: 1 } };
const lookup2 = { tool: 'lookup', input: { id: 2, fields: ['name', 'email'] } };
const email = { tool: 'send_email', input: { to: 'ann@example.com', body: 'Hello', cc: { team: 'ops' } } };

describe('toMatchTrajectory: the order', () => {
  it('strict (the default): the same number of calls, each matching the reference call at its place', () => {
    expect(run).toMatchTrajectory([lookup1, lookup2, email]);
    expect(run).toMatchTrajectory([lookup1, lookup2, email], { order: 'strict' });
    expect(run).not.toMatchTrajectory([lookup2, lookup1, email]);
    expect(run).not.toMatchTrajectory([lookup1, lookup2]);
    expect(run).not.toMatchTrajectory([lookup1, lookup2, email, email]);
    expect(run).not.toMatchTrajectory([]);
  });

  it('unordered: the same calls in any order, each reference call matched by one call', () => {
    expect(run).toMatchTrajectory([email, lookup2, lookup1], { order: 'unordered' });
    expect(run).not.toMatchTrajectory([email, lookup1], { order: 'unordered' });
    expect(run).not.toMatchTrajectory([email, lookup1, lookup2, lookup1], { order: 'unordered' });
    // A tool called twice needs two reference calls: one reference call cannot match both.
    expect(run).not.toMatchTrajectory([{ tool: 'lookup' }, email], { order: 'unordered', args: 'ignore' });
    expect(run).toMatchTrajectory([{ tool: 'lookup' }, email, { tool: 'lookup' }], { order: 'unordered' });
  });

  it('subset: every call made is in the reference, which may have more', () => {
    expect(run).toMatchTrajectory([email, lookup1, lookup2, { tool: 'archive' }], { order: 'subset' });
    expect(run).toMatchTrajectory([lookup2, email, lookup1], { order: 'subset' });
    expect(run).not.toMatchTrajectory([lookup1, lookup2], { order: 'subset' });
    // Two calls of lookup, one reference call of it: the second call is not in the reference.
    expect(run).not.toMatchTrajectory([{ tool: 'lookup' }, email, { tool: 'archive' }], { order: 'subset' });
  });

  it('superset: every reference call was made, among others', () => {
    expect(run).toMatchTrajectory([email, lookup1], { order: 'superset' });
    expect(run).toMatchTrajectory([], { order: 'superset' });
    expect(run).not.toMatchTrajectory([email, { tool: 'archive' }], { order: 'superset' });
    // Three reference calls of lookup, two calls of it.
    const thrice = [{ tool: 'lookup' }, { tool: 'lookup' }, { tool: 'lookup' }];
    expect(run).not.toMatchTrajectory(thrice, { order: 'superset' });
  });

  it('pairs calls with reference calls by a maximum matching, not the first that fits', () => {
    // Taken in order, the reference's any-input lookup would take lookup {id: 1}, leaving {id: 1} nothing to match.
    const reference = [{ tool: 'lookup' }, { tool: 'lookup', input: { id: 1 } }];
    expect(run).toMatchTrajectory(reference, { order: 'superset' });
    expect(run).toMatchTrajectory([...reference, email], { order: 'unordered' });
    expect(run).toMatchTrajectory([...reference, email], { order: 'subset' });
  });
});

describe('toMatchTrajectory: the args rule', () => {
  it('exact (the default): inputs equal as toEqual has them, asymmetric matchers included', () => {
    expect(run).not.toMatchTrajectory([lookup1, { tool: 'lookup', input: { id: 2 } }, email]);
    expect(run).toMatchTrajectory([
      lookup1,
      { tool: 'lookup', input: expect.objectContaining({ id: 2 }) },
      { tool: 'send_email', input: { ...email.input, to: expect.stringMatching(/@example\.com$/) } },
    ]);
  });

  it('a reference call without an input matches any input of its tool, whatever the rule', () => {
    expect(run).toMatchTrajectory([{ tool: 'lookup' }, { tool: 'lookup' }, { tool: 'send_email' }]);
    const never = () => false;
    expect(run).toMatchTrajectory([{ tool: 'lookup' }, { tool: 'lookup' }, { tool: 'send_email' }], { args: never });
    expect(run).not.toMatchTrajectory([{ tool: 'lookup' }, { tool: 'send_email' }, { tool: 'lookup' }]);
  });

  it('ignore: only the tools are compared', () => {
    const others = [
      { tool: 'lookup', input: { id: 9 } },
      { tool: 'lookup', input: 'anything' },
      { tool: 'send_email', input: {} },
    ];
    expect(run).toMatchTrajectory(others, { args: 'ignore' });
    expect(run).not.toMatchTrajectory(others.reverse(), { args: 'ignore' });
  });

  it('superset: the input sent holds the reference input (keys recursively; arrays whole, items by place)', () => {
    const holds = (input: unknown) =>
      expect(run).toMatchTrajectory([{ tool: 'send_email', input }], {
        order: 'superset',
        args: 'superset',
      });
    const holdsNot = (input: unknown) =>
      expect(run).not.toMatchTrajectory([{ tool: 'send_email', input }], { order: 'superset', args: 'superset' });
    holds({ to: 'ann@example.com' });
    holds({ cc: {} });
    holds({});
    holds({ cc: { team: 'ops' }, body: 'Hello' });
    holds({ to: expect.any(String) });
    holdsNot({ to: 'bob@example.com' });
    holdsNot({ cc: { team: 'ops', lead: 'Ann' } });
    holdsNot({ bcc: 'x' });
    const lookup = (input: unknown) => [{ tool: 'lookup', input }];
    const superset = { order: 'superset', args: 'superset' } as const;
    expect(run).toMatchTrajectory(lookup({ fields: ['name', 'email'] }), superset);
    expect(run).toMatchTrajectory(lookup({ fields: [expect.any(String), 'email'] }), superset);
    // An array is a list: the same length, and items by place.
    expect(run).not.toMatchTrajectory(lookup({ fields: ['name'] }), superset);
    expect(run).not.toMatchTrajectory(lookup({ fields: ['email', 'name'] }), superset);
  });

  it('subset: the input sent is within the reference input (it sent nothing the reference lacks)', () => {
    const wide = {
      tool: 'send_email',
      input: { to: 'ann@example.com', body: 'Hello', cc: { team: 'ops', x: 1 }, y: 2 },
    };
    expect(run).toMatchTrajectory([wide], { order: 'superset', args: 'subset' });
    expect(run).not.toMatchTrajectory([wide], { order: 'superset', args: 'superset' });
    expect(run).not.toMatchTrajectory([{ tool: 'send_email', input: { to: 'ann@example.com' } }], {
      order: 'superset',
      args: 'subset',
    });
  });

  it('by tool: a rule per tool name, `default` for the others (exact when not given)', () => {
    const reference = [lookup1, { tool: 'lookup', input: { id: 2 } }, { tool: 'send_email', input: { to: 'x' } }];
    expect(run).toMatchTrajectory(reference, { args: { lookup: 'superset', send_email: 'ignore' } });
    expect(run).toMatchTrajectory(reference, { args: { default: 'ignore' } });
    expect(run).not.toMatchTrajectory(reference, { args: { lookup: 'superset' } });
    expect(run).not.toMatchTrajectory(reference, { args: { default: 'superset', send_email: 'exact' } });
  });

  it('a function of the two inputs and the tool, called with the input sent first', () => {
    const seen: unknown[][] = [];
    const sameId = (actual: unknown, expected: unknown, tool: string) => {
      seen.push([actual, expected, tool]);
      return (actual as { id?: unknown }).id === (expected as { id?: unknown }).id;
    };
    const reference = [lookup1, { tool: 'lookup', input: { id: 2 } }, { tool: 'send_email', input: {} }];
    expect(run).toMatchTrajectory(reference, { args: sameId });
    expect(seen).toEqual([
      [{ id: 1 }, { id: 1 }, 'lookup'],
      [lookup2.input, { id: 2 }, 'lookup'],
      [email.input, {}, 'send_email'],
    ]);
    expect(run).toMatchTrajectory(reference, { args: { default: 'exact', lookup: sameId, send_email: 'ignore' } });
    expect(run).not.toMatchTrajectory([lookup2, lookup1, email], { args: sameId });
  });
});

describe('toMatchTrajectory: the reference', () => {
  let replayed: AgentResult;
  beforeAll(async () => {
    replayed = (await runTrajectory({ file: 'trajectories/zero-trust.yaml', agent: createAssistant, mode: 'replay' }))
      .result;
  });

  it('a shipped trajectory, by path or loaded, matches its own replay and the file itself', () => {
    const trajectory = loadTrajectory('trajectories/zero-trust.yaml');
    expect(replayed).toMatchTrajectory('trajectories/zero-trust.yaml');
    expect(replayed).toMatchTrajectory(trajectory);
    expect(trajectory).toMatchTrajectory(replayed);
    assertThat(trajectory).matchesTrajectory('trajectories/zero-trust.yaml').matchesTrajectory(replayed);
  });

  it('another recording: the order and args rules apply to it as to a list', () => {
    // approve-on-taint: fetch_page, send_payment (9000, held), send_payment (120); zero-trust: the first two.
    const approveOnTaint = loadTrajectory('trajectories/approve-on-taint.yaml');
    expect(approveOnTaint).not.toMatchTrajectory('trajectories/zero-trust.yaml');
    expect(approveOnTaint).toMatchTrajectory('trajectories/zero-trust.yaml', { order: 'superset' });
    expect(replayed).toMatchTrajectory(approveOnTaint, { order: 'subset' });
    expect(replayed).not.toMatchTrajectory(approveOnTaint, { order: 'superset' });
    expect(approveOnTaint).toMatchTrajectory('trajectories/provenance-traced.yaml');
  });

  it('a missing file is a TrajectoryNotFoundError that says where it was looked for', () => {
    const error = caught(() => expect(run).toMatchTrajectory('trajectories/no-such.yaml'), TrajectoryNotFoundError);
    expect(error.message).toBe(
      'trajectories/no-such.yaml does not exist. toMatchTrajectory reads its reference from this path, relative to ' +
        `the working directory (${process.cwd()}): give the path of a recorded trajectory, or the reference calls as ` +
        'a list of { tool, input? }.',
    );
  });
});

describe('toMatchTrajectory: the failure message', () => {
  it('strict: the first call that differs, the two sequences aligned with it marked, then the timeline', () => {
    const message = failure(() =>
      expect(run).toMatchTrajectory([lookup1, { tool: 'lookup', input: { id: 3 } }, { tool: 'archive' }]),
    );
    expect(message).toBe(
      [
        `expected the run to match the reference trajectory (order strict, args exact), but call 2 differs: the ` +
          `reference has 'lookup' with {"id":3}, the run called it with {"id":2,"fields":["name","email"]}.`,
        '',
        '  reference                  run',
        '  1. lookup {"id":1}      =  1. lookup {"id":1}',
        '> 2. lookup {"id":3}      ≠  2. lookup {"id":2,"fields":["name","email"]}',
        '  3. archive (any input)  ≠  3. send_email {"to":"ann@example.com","body":"Hello","…',
        '',
        'Tool calls:',
        '   1. lookup      ok',
        '   2. lookup      ok',
        '   3. send_email  ok',
        'Stopped with end_turn.',
      ].join('\n'),
    );
  });

  it('strict: a run shorter or longer than the reference', () => {
    expect(failure(() => expect(run).toMatchTrajectory([lookup1, lookup2, email, { tool: 'archive' }]))).toContain(
      `but the run made 3 calls and the reference has 4: the reference's call 4, 'archive' (any input), was not made.`,
    );
    const longer = failure(() => expect(run).toMatchTrajectory([lookup1]));
    expect(longer).toContain(
      `but the run made 3 calls and the reference has 1: the run's call 2, 'lookup' with ` +
        `{"id":2,"fields":["name","email"]}, is not in the reference.`,
    );
    expect(longer).toContain(
      [
        '  reference              run',
        '  1. lookup {"id":1}  =  1. lookup {"id":1}',
        '> —                      2. lookup {"id":2,"fields":["name","email"]}',
        '  —                      3. send_email {"to":"ann@example.com","body":"Hello","…',
      ].join('\n'),
    );
  });

  it('strict: another tool at a place', () => {
    expect(failure(() => expect(run).toMatchTrajectory([email, lookup2, lookup1]))).toContain(
      `but call 1 differs: the reference has 'send_email' with {"to":"ann@example.com","body":"Hello","…, ` +
        `the run called 'lookup' with {"id":1}.`,
    );
  });

  it('unordered, subset, superset: the first call left unpaired, and why', () => {
    const unordered = failure(() =>
      expect(run).toMatchTrajectory([email, { tool: 'lookup', input: { id: 7 } }, lookup1], { order: 'unordered' }),
    );
    expect(unordered).toContain(
      `but the run's call 2, 'lookup' with {"id":2,"fields":["name","email"]}, is not in the reference ` +
        `(no reference call of 'lookup' matches its input).`,
    );
    // Each row pairs a reference call with the call matched to it; unpaired ones come last, with a dash.
    expect(unordered).toContain(
      [
        '  reference                                                   run',
        '  3. lookup {"id":1}                                       =  1. lookup {"id":1}',
        '> —                                                           2. lookup {"id":2,"fields":["name","email"]}',
        '  1. send_email {"to":"ann@example.com","body":"Hello","…  =  3. send_email {"to":"ann@example.com","body":"Hello","…',
        '  2. lookup {"id":7}                                          —',
      ].join('\n'),
    );
    expect(failure(() => expect(run).toMatchTrajectory([lookup1, lookup2], { order: 'subset' }))).toContain(
      `but the run's call 3, 'send_email' with {"to":"ann@example.com","body":"Hello","…, is not in the reference ` +
        `(the reference has no call of 'send_email').`,
    );
    expect(failure(() => expect(run).toMatchTrajectory([{ tool: 'lookup' }, email], { order: 'subset' }))).toContain(
      `but the run's call 2, 'lookup' with {"id":2,"fields":["name","email"]}, is not in the reference ` +
        `(each reference call of 'lookup' that matches it is paired with another call of the run).`,
    );
    expect(failure(() => expect(run).toMatchTrajectory([{ tool: 'archive' }], { order: 'superset' }))).toContain(
      `but the reference's call 1, 'archive' (any input), was not made (the run never called 'archive').`,
    );
    const missing = { tool: 'lookup', input: { id: 3 } };
    expect(failure(() => expect(run).toMatchTrajectory([missing], { order: 'superset' }))).toContain(
      `but the reference's call 1, 'lookup' with {"id":3}, was not made (no call of 'lookup' matched its input).`,
    );
    const thrice = [{ tool: 'lookup' }, { tool: 'lookup' }, { tool: 'lookup' }];
    expect(failure(() => expect(run).toMatchTrajectory(thrice, { order: 'superset' }))).toContain(
      `but the reference's call 3, 'lookup' (any input), was not made ` +
        `(each call of 'lookup' that matches it is paired with another reference call).`,
    );
  });

  it('names the rules as given: by tool, and a function', () => {
    const message = failure(() =>
      expect(run).toMatchTrajectory([], { order: 'subset', args: { default: 'superset', lookup: () => true } }),
    );
    expect(message).toMatch(
      /^expected the run to match the reference trajectory \(order subset, args superset, by a function for 'lookup'\)/,
    );
  });

  it('negated: says it matched, with the two sequences aligned and nothing marked', () => {
    const message = failure(() => expect(run).not.toMatchTrajectory([lookup2, email], { order: 'superset' }));
    expect(message).toContain(
      'expected the run not to match the reference trajectory (order superset, args exact), but it did.\n\n' +
        '  reference                                                   run\n' +
        '  —                                                           1. lookup {"id":1}\n' +
        '  1. lookup {"id":2,"fields":["name","email"]}             =  2. lookup {"id":2,"fields":["name","email"]}\n',
    );
    expect(message).not.toMatch(/^>/m);
  });

  it('is the same under assertThat, where inputs are compared with isDeepStrictEqual', () => {
    const reference = [lookup1, lookup1, email];
    const vitest = failure(() => expect(run).toMatchTrajectory(reference, { order: 'unordered' }));
    expect(failure(() => assertThat(run).matchesTrajectory(reference, { order: 'unordered' }))).toBe(vitest);
    expect(failure(() => assertThat(run).not.matchesTrajectory([lookup1, lookup2, email]))).toBe(
      failure(() => expect(run).not.toMatchTrajectory([lookup1, lookup2, email])),
    );
    // No asymmetric matchers outside vitest: an object is compared as it is.
    expect(() =>
      assertThat(run).matchesTrajectory([{ tool: 'lookup', input: expect.anything() }], { order: 'superset' }),
    ).toThrow(/was not made/);
  });

  it('a run and a reference with no calls match, and say so when negated', () => {
    const none = { ...run, toolCalls: [] } as AgentResult;
    expect(none).toMatchTrajectory([]);
    expect(failure(() => expect(none).not.toMatchTrajectory([]))).toContain(
      'but it did.\n\nReference and run: no calls.',
    );
  });
});

describe('toMatchTrajectory refuses what it cannot read, with a UsageError', () => {
  const tryReference = (reference: unknown) => () => expect(run).toMatchTrajectory(reference as ReferenceCall[]);
  const tryOptions = (options: unknown) => () => expect(run).toMatchTrajectory([], options as never);

  it('a reference of another kind', () => {
    const kinds =
      'a list of { tool, input? }, a Trajectory (loadTrajectory), an AgentResult (agent.run) or the path of a trajectory file';
    expect(refusal('invalid_trajectory_reference', tryReference(42))).toBe(
      `toMatchTrajectory's reference must be ${kinds}, but it was the number 42.`,
    );
    expect(refusal('invalid_trajectory_reference', tryReference({ calls: [] }))).toContain('but it was the object');
    expect(refusal('invalid_trajectory_reference', tryReference(''))).toContain('but it was the empty string');
    expect(refusal('invalid_trajectory_reference', tryReference(null))).toContain('but it was null');
  });

  it('a reference call that is not { tool, input? }', () => {
    expect(refusal('invalid_trajectory_reference', tryReference(['lookup']))).toBe(
      `call 1 of toMatchTrajectory's reference must be { tool, input? }, but it was the string "lookup" ` +
        `(a tool's name alone: write { tool: "lookup" }).`,
    );
    expect(refusal('invalid_trajectory_reference', tryReference([lookup1, { name: 'lookup' }]))).toBe(
      `call 2 of toMatchTrajectory's reference must name its tool: 'tool' must be a non-empty string, but it was ` +
        `undefined (it has a 'name': a reference call names its tool 'tool').`,
    );
    expect(refusal('invalid_trajectory_reference', tryReference([{ tool: 'lookup', args: { id: 1 } }]))).toBe(
      `call 1 of toMatchTrajectory's reference has 'args', which a reference call does not take: it is ` +
        `{ tool, input? } (the arguments are its 'input').`,
    );
    expect(refusal('invalid_trajectory_reference', tryReference([{ tool: '' }]))).toContain('the string ""');
  });

  it('options it cannot read', () => {
    expect(refusal('invalid_trajectory_match_option', tryOptions('strict'))).toBe(
      `toMatchTrajectory's options are { order?, args? }, but they were the string "strict".`,
    );
    expect(refusal('invalid_trajectory_match_option', tryOptions({ mode: 'exact' }))).toBe(
      `toMatchTrajectory's options are { order?, args? }, but they had 'mode' (toHaveToolSequence's option: ` +
        `here the order is 'order').`,
    );
    expect(refusal('invalid_trajectory_match_option', tryOptions({ order: 'inOrder' }))).toBe(
      'the trajectory order must be one of strict, unordered, subset, superset, but it was the string "inOrder".',
    );
    expect(refusal('invalid_trajectory_match_option', tryOptions({ args: 'loose' }))).toBe(
      'the args rule must be one of exact, ignore, subset, superset, a function (actual, expected, tool) => ' +
        `boolean, or an object of these by tool name ({ default?, send_email: ... }), but it was the string "loose".`,
    );
    expect(refusal('invalid_trajectory_match_option', tryOptions({ args: { lookup: 'loose' } }))).toBe(
      `the args rule for 'lookup' must be one of exact, ignore, subset, superset or a function (actual, expected, ` +
        `tool) => boolean, but it was the string "loose".`,
    );
    expect(refusal('invalid_trajectory_match_option', tryOptions({ args: { default: 3 } }))).toContain(
      'the args rule for the tools not named',
    );
  });

  it('an args function that answers something other than true or false', () => {
    const check = () => expect(run).toMatchTrajectory([lookup1], { order: 'subset', args: () => 'yes' as never });
    expect(refusal('invalid_trajectory_match_option', check)).toBe(
      `the args function for 'lookup' must return true or false, but it returned the string "yes".`,
    );
    expect(() => assertThat(run).matchesTrajectory([lookup1], { args: () => 1 as never })).toThrow(UsageError);
  });
});
