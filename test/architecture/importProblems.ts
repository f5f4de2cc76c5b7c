import type { ImportEdge } from './importGraph.js';
import { type Layers, layerOf, reachableLayers } from './layers.js';

/** Files that import each other in a loop: `files` (sorted) names it, `text` shows one loop and every import in it. */
export interface Circle {
  readonly files: readonly string[];
  readonly text: string;
}

/** An import from a layer to one its row does not allow: `arrow` (`from -> to`) names it. */
export interface UpwardArrow {
  readonly arrow: string;
  readonly text: string;
}

const named = (edge: ImportEdge): string => `${edge.from} -> ${edge.to}: ${edge.names.join(', ') || '(the module)'}`;

/** The shortest loop from `start` back to it, through `files`. */
function loopFrom(start: string, files: Set<string>, next: Map<string, string[]>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let at = queue.shift(); at !== undefined; at = queue.shift()) {
    for (const to of next.get(at) ?? []) {
      if (!files.has(to)) continue;
      if (to === start) {
        const loop = [start];
        for (let back: string | undefined = at; back !== start && back !== undefined; back = cameFrom.get(back)) {
          loop.splice(1, 0, back);
        }
        return [...loop, start];
      }
      if (cameFrom.has(to)) continue;
      cameFrom.set(to, at);
      queue.push(to);
    }
  }
  return [start];
}

/** Every circle of files (Tarjan's strongly connected components of more than one file, and self-imports). */
export function circlesOf(edges: readonly ImportEdge[]): Circle[] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: Circle[] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component = stack.splice(stack.indexOf(file));
    if (component.length === 1 && !(next.get(file) ?? []).includes(file)) return;
    const files = new Set(component);
    const sorted = [...files].sort();
    const inside = edges.filter((edge) => files.has(edge.from) && files.has(edge.to));
    const loop = loopFrom(sorted[0]!, files, next).join(' -> ');
    circles.push({ files: sorted, text: [`${loop}`, ...inside.map((edge) => `  ${named(edge)}`)].join('\n') });
  };
  for (const file of [...next.keys()].sort()) if (!index.has(file)) visit(file);
  return circles.sort((a, b) => a.files.join().localeCompare(b.files.join()));
}

/** Every import of a file from a layer its layer may not import (and of a file in no layer, as such). */
export function upwardArrowsOf(edges: readonly ImportEdge[], layers: Layers): UpwardArrow[] {
  const reach = reachableLayers(layers);
  return edges.flatMap((edge) => {
    const [from, to] = [layerOf(edge.from, layers), layerOf(edge.to, layers)];
    if (from !== undefined && from === to) return [];
    if (from !== undefined && to !== undefined && reach.get(from)!.has(to)) return [];
    const why = from === undefined || to === undefined ? 'a file in no layer' : `${from} may not import ${to}`;
    return [{ arrow: `${edge.from} -> ${edge.to}`, text: `${named(edge)} (${why})` }];
  });
}
