import { createRequire } from 'node:module';

type Load = (text: string) => unknown;

/**
 * js-yaml's `load`, the parse-only floor the replay line is measured against, from the faster of the two builds the
 * package ships. `import 'js-yaml'` resolves to its ES module build (dist/js-yaml.mjs), which loaded the bench's
 * 5 KB files at 0.54 ms each where its CommonJS build (dist/js-yaml.cjs.js, what `require` resolves to) took 0.2 ms,
 * same machine, same files: a floor must not be the slow way to do the same work, or the ratio flatters replay.
 */
export const yamlLoad = (createRequire(import.meta.url)('js-yaml') as { load: Load }).load;

/** The ES module build's `load`, measured beside the other so the difference stays visible. */
export const { load: yamlLoadEsm } = (await import('js-yaml')) as { load: Load };
