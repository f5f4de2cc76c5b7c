/**
 * A module of the built package (dist/) that no entry point exports, typed as its source: the bench measures what
 * users run, and the type check needs no build. `path` is relative to dist/, e.g. `src/guard/pipeline.js`.
 */
export function builtModule<Module>(path: string): Promise<Module> {
  return import(new URL(`../dist/${path}`, import.meta.url).href) as Promise<Module>;
}
