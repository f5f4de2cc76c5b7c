/**
 * The layers of legate's code, the one table of them: each folder of src/ (a sub-folder where it is a layer
 * of its own, a file of src/'s top level), and cli/, with the layers its files may import. What a layer may
 * import, the layers those may import may be imported too; a file may import anything of its own layer.
 * ARCHITECTURE.md states this table in words; test/architecture/imports.test.ts holds the code and that page to it.
 */
export type Layers = Readonly<Record<string, readonly string[]>>;

export const LAYERS: Layers = {
  // The shared shapes: errors, JSON values, files, the Messages API types, legate's version.
  errors: [],
  json: [],
  files: ['errors'],
  messages: ['errors', 'json'],
  'version.ts': ['files'],
  tools: ['messages', 'version.ts'],
  guard: ['tools'],
  'guard/audit': ['guard', 'trajectory'],
  transport: ['messages'],
  telemetry: ['messages', 'version.ts'],
  runtime: ['tools', 'guard', 'transport', 'telemetry'],
  // The header records each tool's posture, declared once with the tools (tools/postureFields.ts).
  trajectory: ['tools'],
  recording: ['runtime', 'transport', 'trajectory'],
  replay: ['runtime', 'transport', 'trajectory', 'recording'],
  store: ['runtime', 'trajectory'],
  intercept: ['trajectory', 'replay', 'guard', 'messages'],
  mcp: ['tools', 'guard', 'runtime'],
  openapi: ['tools', 'guard', 'runtime'],
  assert: ['runtime', 'trajectory', 'replay', 'guard', 'guard/audit'],
  fuzz: ['runtime', 'replay'],
  view: ['trajectory', 'guard/audit'],
  'index.ts': ['guard/audit', 'store', 'intercept', 'mcp', 'openapi', 'assert', 'fuzz', 'view'],
  cli: ['index.ts'],
};

/**
 * The layer of a file (a path from the repository's root, with `/`): the longest layer whose folder holds it
 * (`src/guard/audit/x.ts` is in `guard/audit`, not `guard`), `cli` for the command; undefined for none.
 */
export function layerOf(path: string, layers: Layers = LAYERS): string | undefined {
  if (path.startsWith('cli/')) return 'cli' in layers ? 'cli' : undefined;
  const inSrc = path.replace(/^src\//, '');
  const holding = Object.keys(layers).filter((layer) => inSrc === layer || inSrc.startsWith(`${layer}/`));
  return holding.sort((a, b) => b.length - a.length)[0];
}

/** Each layer with every layer it may import, through the layers it names (itself excluded unless a loop). */
export function reachableLayers(layers: Layers = LAYERS): Map<string, Set<string>> {
  const reach = new Map<string, Set<string>>();
  for (const layer of Object.keys(layers)) {
    const seen = new Set<string>();
    const next = [...(layers[layer] ?? [])];
    for (let named = next.pop(); named !== undefined; named = next.pop()) {
      if (seen.has(named)) continue;
      seen.add(named);
      next.push(...(layers[named] ?? []));
    }
    reach.set(layer, seen);
  }
  return reach;
}
