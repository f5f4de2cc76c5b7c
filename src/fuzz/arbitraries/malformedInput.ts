import { fc } from '../fastCheck.js';
import type { ArgumentPath } from '../../tools/binder/invalidArgument.js';
import type { PublishedSchema } from '../../tools/schema/publishedSchema.js';
import type { AnyTool } from '../../tools/tool.js';
import { breakSites } from './breakSites.js';
import { containerBreaks } from './containerBreaks.js';
import { generationFor } from './arbitraryOf.js';
import { hostOf, replacedAt } from './hostOf.js';
import type { Break, Broken, Malformation } from './malformation.js';
import { inputsOf } from './validInput.js';
import { valueBreaks } from './valueBreaks.js';

export type { Malformation } from './malformation.js';

/** A malformed input that knows where it was broken, so a test can check the binder named that place. */
export interface MalformedCase {
  input: unknown;
  path: ArgumentPath;
  malformation: Malformation;
}

/**
 * Inputs broken in exactly one place, every way a model (or an attacker) breaks them: each place
 * of the schema (see breakSites) is broken every way its schema gives a handle for, inside an
 * input that is valid everywhere else. Throws a UsageError (`unsatisfiable_schema`) when no
 * input is valid.
 */
export function malformedInput(tool: AnyTool): fc.Arbitrary<MalformedCase> {
  const known = built.get(tool.inputSchema);
  if (known !== undefined) return known;
  inputsOf(tool, false); // a schema no value satisfies has no valid input to break
  const generation = generationFor(tool.inputSchema);
  const cases: fc.Arbitrary<MalformedCase>[] = [notAnObject()];
  for (const site of breakSites(tool.inputSchema)) {
    const breaks: Break[] = [
      ...(site.kind === 'root' || site.kind === 'alternative' ? [] : valueBreaks(site, generation)),
      ...containerBreaks(site, generation),
    ];
    for (const { malformation, values } of breaks) {
      if (values === 'absent') {
        const host = hostOf(site.route, generation, 'absent');
        if (host !== undefined) cases.push(host.map((input) => ({ input, path: site.path, malformation })));
        continue;
      }
      const host = hostOf(
        site.route,
        generation,
        values.map((broken) => new Hole(broken)),
      );
      if (host === undefined) continue;
      cases.push(
        host.map((input) => {
          let at: ArgumentPath = [];
          const filled = replacedAt(input, site.path, (hole) => {
            at = (hole as Hole).broken.at;
            return (hole as Hole).broken.value;
          });
          return { input: filled, path: [...site.path, ...at], malformation };
        }),
      );
    }
  }
  const malformed = fc.oneof(...cases);
  built.set(tool.inputSchema, malformed);
  return malformed;
}

/**
 * The malformed inputs of each published schema, built once: they depend on the schema alone, and an arbitrary
 * holds no state, so a schema fuzzed again (another seed, another test) reuses them.
 */
const built = new WeakMap<PublishedSchema, fc.Arbitrary<MalformedCase>>();

/** The broken value's place in a generated input, until it is put there. */
class Hole {
  constructor(readonly broken: Broken) {}
}

/** A value where the whole input belongs: the top level must be an object of named arguments. */
function notAnObject(): fc.Arbitrary<MalformedCase> {
  return fc
    .oneof(
      fc.array(fc.jsonValue(), { maxLength: 3 }),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom('not json {', '"text"', '[1,2]'),
    )
    .map((input) => ({ input, path: [], malformation: 'not_an_object' as const }));
}
