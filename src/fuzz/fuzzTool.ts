import { fc } from './fastCheck.js';
import { isDeepStrictEqual } from 'node:util';
import type { ToolUseBlock } from '../messages/types.js';
import { copyPlainData } from '../json/copyPlainData.js';
import { executeToolCall, type ToolCallScope } from '../runtime/executeToolCall.js';
import { describePath, type InvalidArgument } from '../tools/binder/invalidArgument.js';
import type { AnyTool } from '../tools/tool.js';
import { malformedInput, type MalformedCase } from './arbitraries/malformedInput.js';
import { validInput } from './arbitraries/validInput.js';
import type { FuzzFailure, FuzzReport } from './fuzzReport.js';
import { isEarlier } from './isEarlier.js';
import { withDefaults } from './withDefaults.js';

export interface FuzzToolOptions {
  /** Cases per property. Default 1000. */
  numRuns?: number;
  /** Makes a run reproducible; printed with every failure. */
  seed?: number;
}

/**
 * Fuzzes a tool's binder through the runtime's own call path. Properties: the binder never
 * throws; every malformed input is refused at the place it was broken (or an earlier one in
 * declaration order) with a message naming that place; `run` is never invoked on a malformed
 * input; every valid input reaches `run` with the values that were sent, defaults applied.
 */
export async function fuzzTool(tool: AnyTool, options: FuzzToolOptions = {}): Promise<FuzzReport> {
  const numRuns = options.numRuns ?? 1000;
  const seed = options.seed ?? Date.now() ^ (Math.random() * 0x7fffffff);
  const started = performance.now();
  const failures: FuzzFailure[] = [];
  const harness = spyHarness(tool);

  const malformed = await fc.check(
    fc.asyncProperty(malformedInput(tool), async (broken) => {
      const problem = await checkMalformed(tool, harness, broken);
      if (problem !== undefined) throw new Error(problem);
    }),
    { numRuns, seed },
  );
  if (malformed.failed) failures.push(failure('malformed inputs are refused where they were broken', malformed));

  const valid = await fc.check(
    fc.asyncProperty(validInput(tool), async (input) => {
      const problem = await checkValid(tool, harness, input);
      if (problem !== undefined) throw new Error(problem);
    }),
    { numRuns: Math.max(1, Math.floor(numRuns / 4)), seed },
  );
  if (valid.failed) failures.push(failure('valid inputs reach run with the values sent', valid));

  const seconds = (performance.now() - started) / 1000;
  const cases = malformed.numRuns + valid.numRuns;
  return { target: tool.name, kind: 'tool', cases, failures, seconds, casesPerSecond: cases / seconds };
}

interface Harness {
  runs: unknown[];
  call(input: unknown): ReturnType<typeof executeToolCall>;
}

/** The tool, its `run` replaced by a spy, called the way the runtime calls it. */
function spyHarness(tool: AnyTool): Harness {
  const runs: unknown[] = [];
  const spy: AnyTool = { ...tool, run: (args: unknown) => void runs.push(args) };
  const scope: ToolCallScope = {
    agent: 'fuzz',
    tools: new Map([[tool.name, spy]]),
    turn: 1,
    signal: new AbortController().signal,
    now: () => new Date(0),
    mode: 'live',
    stub: undefined,
    replay: undefined,
    needsApproval: undefined,
    handoffs: new Map(),
    reportUsage: () => undefined,
    transportFor: () => undefined,
    replayFor: () => undefined,
  };
  return {
    runs,
    call: (input) =>
      executeToolCall({ type: 'tool_use', id: 'toolu_fuzz', name: tool.name, input } satisfies ToolUseBlock, scope),
  };
}

/** Breakages the binder may refuse at a place inside the one broken. */
const INSIDE = new Set<MalformedCase['malformation']>(['no_alternative', 'condition_unmet']);

async function checkMalformed(tool: AnyTool, harness: Harness, broken: MalformedCase): Promise<string | undefined> {
  harness.runs.length = 0;
  let outcome: Awaited<ReturnType<Harness['call']>>;
  try {
    outcome = await harness.call(broken.input);
  } catch (error) {
    return binderThrew(error, broken);
  }
  // The binder runs once per input, in the runtime's call: what it refused is on the call's record (the tool is
  // in the scope, so an invalid call is one the binder refused).
  const refusal =
    'call' in outcome && outcome.call.outcome === 'invalid' ? (outcome.call.error as InvalidArgument) : undefined;
  if (refusal === undefined || harness.runs.length > 0) {
    // The runtime let the input through: asked directly, the binder says whether it accepted the input, or the
    // runtime ran the tool on an input the binder refuses.
    let bound: ReturnType<AnyTool['bind']>;
    try {
      bound = tool.bind(broken.input);
    } catch (error) {
      return binderThrew(error, broken);
    }
    return bound.ok
      ? `an input broken by ${site(broken)} was accepted`
      : `run was invoked on an input broken by ${site(broken)}`;
  }
  const { path, message, code } = refusal;
  // Nesting past the input's depth limit is refused where it crosses the limit, inside the site; a value no
  // union alternative takes, where the closest alternative refused it, and a condition's branch, where its
  // rule fails: maybe inside too.
  // Paths hold property names and item indexes, so === compares their keys.
  const within =
    (code === 'too_deep' || INSIDE.has(broken.malformation)) && broken.path.every((key, i) => path[i] === key);
  const there = path.length === broken.path.length && broken.path.every((key, i) => path[i] === key);
  if (!within && !there && !isEarlier(tool.inputSchema, path, broken.path))
    return `an input broken by ${site(broken)} was refused at ${describePath(path)}`;
  if (!message.startsWith(`Tool '${tool.name}' `)) return `the refusal does not name the tool: ${message}`;
  const named = code === 'unknown_argument' ? path.length - 1 : code === 'too_deep' ? 1 : path.length;
  const place = path.length === 0 ? 'input' : describePath(path.slice(0, named));
  if (path.length > 0 && code !== 'unknown_argument' && !message.includes(place))
    return `the refusal does not name ${place}: ${message}`;
  return undefined;
}

/** Where and how a malformed input was broken, as a failure message says it. */
function site(broken: MalformedCase): string {
  return `${broken.malformation} at ${describePath(broken.path)}`;
}

function binderThrew(error: unknown, broken: MalformedCase): string {
  return `the binder threw ${error instanceof Error ? error.name : typeof error} on an input broken by ${site(broken)}`;
}

async function checkValid(
  tool: AnyTool,
  harness: Harness,
  input: Record<string, unknown>,
): Promise<string | undefined> {
  const sent = copyPlainData(input);
  harness.runs.length = 0;
  const outcome = await harness.call(input);
  if (!('call' in outcome) || outcome.call.outcome !== 'ok') {
    const said = 'call' in outcome ? String(outcome.call.output) : 'it waited for approval';
    // A tool's own rules (zod refinements) may refuse what the schema allows: that is theirs to decide.
    return 'call' in outcome &&
      outcome.call.error?.error === 'invalid_argument' &&
      outcome.call.error.code === 'failed_rule'
      ? undefined
      : `a valid input was refused: ${said}`;
  }
  if (harness.runs.length !== 1) return `run was invoked ${harness.runs.length} times for one valid call`;
  const expected = withDefaults(tool.inputSchema, sent);
  const received = harness.runs[0];
  // A zod schema's transforms change the values on purpose; then only the call itself is checked.
  if (!tool.hasOwnRules && !isDeepStrictEqual(received, expected)) {
    return (
      `run received ${JSON.stringify(received)}, but the model sent ${JSON.stringify(sent)} (with defaults: ` +
      `${JSON.stringify(expected)})`
    );
  }
  return undefined;
}

function failure<T extends [unknown]>(property: string, details: fc.RunDetails<T>): FuzzFailure {
  const counterexample = details.counterexample?.[0];
  const error = details.errorInstance;
  return {
    property,
    seed: details.seed,
    path: details.counterexamplePath ?? undefined,
    counterexample,
    message: error instanceof Error ? error.message : String(error),
  };
}
