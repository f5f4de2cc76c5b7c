/**
 * A module the built package ships at a path of its own but no entry point exports (an example,
 * `examples/payments/agent.js`), typed as its source: the bench measures what users run, and the type check needs no
 * build. `path` is relative to dist/. The library's internals have no such path (the build bundles them into
 * dist/chunks/): a bench that needs one imports its source.
 */
export function builtModule<Module>(path: string): Promise<Module> {
  return import(new URL(`../dist/${path}`, import.meta.url).href) as Promise<Module>;
}
