import { join } from 'node:path';
import {
  Agent,
  ScriptedTransport,
  defineTool,
  loadTrajectory,
  reply,
  toolError,
  type AgentResult,
  type Trajectory,
} from '../../../src/index.js';
import { recordTrajectory } from '../../../src/replay/runTrajectory.js';

/** One call the scripted model makes: the tool, its arguments, and what the tool answers. */
export interface PlannedCall {
  tool: string;
  input: Record<string, unknown>;
  /** The tool's output text (default `done`). */
  output?: string;
  /** How the tool answers: its output, an error result it returns (with the output as message), or a throw. */
  answer?: 'ok' | 'toolError' | 'throws';
}

/** The tools as an agent declares them, provenance included: the same facts an audit is given. */
export interface ProvenanceDeclared {
  untrusted?: readonly string[];
  privileged?: readonly string[];
  sensitive?: Readonly<Record<string, readonly string[]>>;
  outsideAuthored?: Readonly<Record<string, readonly string[]>>;
}

/** A run: the system prompt, the user's prompt, the tools, and the model's calls response by response. */
export interface PlannedRun {
  system?: string;
  prompt: string;
  tools: readonly string[];
  batches: readonly PlannedCall[][];
}

function toolsOf(run: PlannedRun, plans: Map<string, PlannedCall>, declared: ProvenanceDeclared) {
  return run.tools.map((name) => {
    const untrusted = declared.untrusted?.includes(name) ?? false;
    const privileged = declared.privileged?.includes(name) ?? false;
    const sensitive = declared.sensitive?.[name];
    const outsideAuthored = declared.outsideAuthored?.[name];
    return defineTool({
      name,
      description: `${name}.`,
      input: { type: 'object', properties: { recipient: { type: 'string' }, amount: { type: 'number' } } },
      untrusted,
      privileged,
      ...(sensitive === undefined ? {} : { sensitive: [...sensitive] }),
      ...(outsideAuthored === undefined ? {} : { outsideAuthored: [...outsideAuthored] }),
      run: (_args, ctx) => {
        const plan = plans.get(ctx.toolUseId);
        const output = plan?.output ?? 'done';
        if (plan?.answer === 'throws') throw new Error('planned failure');
        if (plan?.answer === 'toolError') return toolError(output);
        return output;
      },
    });
  });
}

function agentOf(run: PlannedRun, declared: ProvenanceDeclared) {
  const plans = new Map<string, PlannedCall>();
  const script = run.batches.map((batch, b) =>
    reply.toolUses(
      batch.map((call, i) => {
        const id = `toolu_${b + 1}_${i}`;
        plans.set(id, call);
        return { name: call.tool, input: call.input, id };
      }),
    ),
  );
  const tools = toolsOf(run, plans, declared);
  return {
    script: () => new ScriptedTransport([...script, reply.text('done')]),
    agent: (transport: ScriptedTransport) =>
      new Agent({
        name: 'teller',
        model: 'claude-test',
        ...(run.system === undefined ? {} : { system: run.system }),
        tools,
        transport,
        maxTurns: run.batches.length + 1,
      }),
  };
}

/** Records the run with nothing declared (the guard blocks nothing); returns the trajectory read back from its file. */
export async function recordPlain(folder: string, run: PlannedRun): Promise<Trajectory> {
  const { script, agent } = agentOf(run, {});
  const file = join(folder, 'run.yaml');
  await recordTrajectory({
    file,
    agent: (transport) => agent(transport as ScriptedTransport),
    transport: script,
    input: run.prompt,
    config: false,
    report: false,
  });
  return loadTrajectory(file);
}

/** The same run live, with the tools declared: what the guard decides. */
export function runDeclared(run: PlannedRun, declared: ProvenanceDeclared): Promise<AgentResult> {
  const { script, agent } = agentOf(run, declared);
  return agent(script()).run(run.prompt);
}
