import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Agent, ScriptedTransport, defineTool, type AnyTool, type HandoffTarget } from '../../src/index.js';
import { agentsReachableFrom, handoffChain, toolsReachableFrom } from '../../src/runtime/agentGraph.js';

const model = 'claude-haiku-5-5';
const noInput = { type: 'object', properties: {} } as const;
const toolNamed = (name: string) => defineTool({ name, description: `${name}.`, input: noInput, run: () => 'ok' });

interface GraphSpec {
  /** For each agent, the earlier agents it hands off to. */
  handoffs: number[][];
  /** For each agent, the earlier agents it has as sub-agent tools. */
  subs: number[][];
  /** Extra handoff edges added after construction, to any agent: cycles a constructor would refuse. */
  back: [number, number][];
}

const graphs = fc.integer({ min: 1, max: 6 }).chain((n) =>
  fc.record({
    handoffs: fc.tuple(...Array.from({ length: n }, (_, j) => fc.subarray(Array.from({ length: j }, (_, i) => i)))),
    subs: fc.tuple(...Array.from({ length: n }, (_, j) => fc.subarray(Array.from({ length: j }, (_, i) => i)))),
    back: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 3 }),
  }),
);

/** Builds the graph; `shared` is one tool object every agent has, to check tools are listed once. */
function build(spec: GraphSpec, shared: AnyTool): Agent[] {
  const agents: Agent[] = [];
  spec.handoffs.forEach((targets, j) => {
    agents.push(
      new Agent({
        name: `a${j}`,
        model,
        transport: new ScriptedTransport([]),
        tools: [toolNamed(`t${j}`), shared, ...spec.subs[j]!.map((i) => agents[i]!.asTool(`ask_a${i}`, 'Asks.'))],
        handoffs: targets.map((i) => ({ name: `a${i}`, agent: agents[i]!, description: 'Next.' })),
      }),
    );
  });
  for (const [from, to] of spec.back) {
    const back: HandoffTarget = { name: `a${to}`, agent: agents[to]!, description: 'Back.', toolName: `back_a${to}` };
    (agents[from]!.handoffs as HandoffTarget[]).push(back);
  }
  return agents;
}

/** The oracle: adjacency from the spec, walked depth first, handoffs before sub-agents, in order. */
function expectedWalk(spec: GraphSpec, from: number, subAgents: boolean): number[] {
  const backFrom = (j: number) => spec.back.filter(([f]) => f === j).map(([, t]) => t);
  const next = (j: number) => [...spec.handoffs[j]!, ...backFrom(j), ...(subAgents ? spec.subs[j]! : [])];
  const order: number[] = [];
  const visit = (j: number) => {
    if (order.includes(j)) return;
    order.push(j);
    next(j).forEach(visit);
  };
  visit(from);
  return order;
}

describe('the agent graph', () => {
  it('walks handoffs, then sub-agents, depth first, each agent once, over any graph (cyclic ones too)', () => {
    fc.assert(
      fc.property(graphs, fc.nat(), (spec, pick) => {
        const shared = toolNamed('shared');
        const agents = build(spec, shared);
        const from = pick % agents.length;
        const names = (list: readonly { name: string }[]) => list.map((agent) => agent.name);
        const all = expectedWalk(spec, from, true);
        const inCharge = expectedWalk(spec, from, false);
        expect(names(agentsReachableFrom(agents[from]!))).toEqual(all.map((i) => `a${i}`));
        expect(names(agentsReachableFrom(agents[from]!, 'handoffs'))).toEqual(inCharge.map((i) => `a${i}`));
        const tools = toolsReachableFrom(agents[from]!);
        expect(new Set(tools).size).toBe(tools.length);
        expect(tools.filter((tool) => tool === shared)).toHaveLength(1);
        expect(new Set(tools)).toEqual(new Set(all.flatMap((i) => agents[i]!.tools)));
        for (const [target, agent] of agents.entries()) {
          const chain = handoffChain(agents[from]!, (other) => other === agent);
          expect(chain !== undefined).toBe(inCharge.includes(target));
          if (chain === undefined) continue;
          expect(chain[0]).toBe(agents[from]);
          expect(chain.at(-1)).toBe(agent);
          for (let k = 1; k < chain.length; k++) expect(chain[k - 1]!.handoffs.map((h) => h.agent)).toContain(chain[k]);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('lists the nearer of two tools with one name first', () => {
    const deep = new Agent({ name: 'deep', model, transport: new ScriptedTransport([]), tools: [toolNamed('lookup')] });
    const near = toolNamed('lookup');
    const tools = [near, deep.asTool('ask_deep', 'Asks.')];
    const top = new Agent({ name: 'top', model, transport: new ScriptedTransport([]), tools });
    expect(toolsReachableFrom(top).find((tool) => tool.name === 'lookup')).toBe(near);
  });
});
