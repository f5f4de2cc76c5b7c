import type { MessagesRequest, ToolUseBlock } from '../messages/types.js';
import type { AnyTool } from '../tools/tool.js';
import type { ServerTool } from '../tools/serverTool.js';
import { recordedDecision, sameDecision } from './callDecision.js';
import { decisionDivergence, missingToolResult } from './divergence.js';
import type { DivergenceContext } from './divergenceError.js';
import type { ReplayToolChange } from './toolChanges.js';
import type { RecordedResult, Trajectory } from '../trajectory/types.js';
import type { CallDecision, DecidedCall, ReplayReferee, ServedResult } from '../runtime/replayReferee.js';
import { DEFAULT_RUN_TOOLS, servedInReplay, type RunTools } from './runToolsPolicy.js';

interface RecordedCallsOptions {
  context: DivergenceContext;
  /** Which tools run for real. Default `safe`. */
  runTools?: RunTools;
  /** What is known to have changed since the recording, told with a decision divergence as its likely cause. */
  changes?: () => readonly ReplayToolChange[];
  /** Compares the posture of the tools behind a request with the recording's (the replay transport's part). */
  offered?: (request: MessagesRequest, tools: readonly (AnyTool | ServerTool)[]) => void;
  /** The referee of the run recorded inside a call. Default: one over no recorded calls. */
  child?: (toolUseId: string) => ReplayReferee;
}

interface RecordedCall {
  result: RecordedResult;
  decision: CallDecision;
  /** The file demands this call be blocked (`expect.blocked`, a fuzz finding's), by this rule if named. */
  mustBlock?: { rule: string | undefined };
}

/**
 * A recording's say over the tool calls of a replayed run: the decision recorded for each call,
 * compared with today's before anything of its response runs, and the recorded results served
 * in place of the tools a replay does not run (see {@link servedInReplay}). A call whose input a
 * redaction changed is always served: running the tool with the placeholder would be a new call.
 */
export class RecordedCalls implements ReplayReferee {
  readonly #calls = new Map<string, RecordedCall>();
  readonly #context: DivergenceContext;
  readonly #runTools: RunTools;
  readonly #served: readonly string[];
  readonly #changes: () => readonly ReplayToolChange[];
  readonly #servedCalls: { id: string; tool: string }[] = [];
  readonly #offered: NonNullable<RecordedCallsOptions['offered']>;
  readonly #child: NonNullable<RecordedCallsOptions['child']>;

  constructor(trajectory: Pick<Trajectory, 'turns' | 'serve' | 'expect'>, options: RecordedCallsOptions) {
    this.#context = options.context;
    this.#runTools = options.runTools ?? DEFAULT_RUN_TOOLS;
    this.#served = trajectory.serve ?? [];
    this.#changes = options.changes ?? (() => []);
    this.#offered = options.offered ?? (() => undefined);
    this.#child = options.child ?? (() => new RecordedCalls({ turns: [] }, { context: this.#context }));
    for (const turn of trajectory.turns) {
      const decided = new Set((turn.approvals ?? []).map((approval) => approval.id));
      for (const result of turn.results ?? [])
        this.#calls.set(result.id, { result, decision: recordedDecision(result, decided.has(result.id)) });
    }
    // A file's expectation stands in for what was recorded: the call must be blocked today.
    for (const expected of trajectory.expect?.blocked ?? []) {
      const call = this.#calls.get(expected.id);
      if (call !== undefined) call.mustBlock = { rule: expected.rule };
    }
  }

  offered(request: MessagesRequest, tools: readonly (AnyTool | ServerTool)[]): void {
    this.#offered(request, tools);
  }

  forToolCall(toolUseId: string): ReplayReferee {
    return this.#child(toolUseId);
  }

  checkDecisions(turn: number, calls: readonly DecidedCall[]): void {
    for (const call of calls) {
      const recorded = this.#calls.get(call.id);
      const { decision } = call;
      if (recorded?.mustBlock !== undefined) {
        const { rule } = recorded.mustBlock;
        if (decision.outcome === 'blocked' && (rule === undefined || decision.rule === rule)) continue;
        throw decisionDivergence(this.#context, turn, call, { mustBlock: { rule } }, decision, this.#changes());
      }
      if (recorded === undefined || recorded.result.tool !== call.name || !sameDecision(recorded.decision, decision)) {
        const wanted = { recorded: recorded?.decision };
        throw decisionDivergence(this.#context, turn, call, wanted, decision, this.#changes());
      }
    }
  }

  /** The calls answered from the recording so far, in the order they were: their tools did not run. */
  get served(): readonly { id: string; tool: string }[] {
    return this.#servedCalls;
  }

  serve(block: ToolUseBlock, turn: number, tool: AnyTool): ServedResult | undefined {
    const recorded = this.#calls.get(block.id)?.result;
    if (recorded?.redactedInput !== true && !servedInReplay(this.#runTools, tool, this.#served)) return undefined;
    // Only a result the tool produced by running can stand in for running it.
    if (
      recorded === undefined ||
      recorded.tool !== block.name ||
      (recorded.outcome !== 'ok' && recorded.outcome !== 'error')
    ) {
      throw missingToolResult(this.#context, turn, block.id, block.name);
    }
    this.#servedCalls.push({ id: block.id, tool: block.name });
    const served: ServedResult = { outcome: recorded.outcome, content: recorded.content };
    if (recorded.errorClass !== undefined) served.errorClass = recorded.errorClass;
    if (recorded.withheld !== undefined) served.withheld = recorded.withheld;
    return served;
  }
}
