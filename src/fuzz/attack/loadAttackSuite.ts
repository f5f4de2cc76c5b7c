import { resolve } from 'node:path';
import { importModule } from '../../files/importModule.js';
import type { AttackSuite } from './attackSuite.js';
import { AttackSuiteError } from './attackSuiteError.js';
import { checkAttackSuite } from './checkAttackSuite.js';

/**
 * The attack suite a module exports (TypeScript needs no build step): its default export, else
 * its export named `suite`, checked as {@link runAttackSuite} checks it. `file` is relative to
 * `cwd` (default `process.cwd()`) and named as given in messages. Throws a `ModuleImportError`
 * when the module cannot be imported, and an {@link AttackSuiteError} when it exports no suite
 * (`no_suite`) or one that cannot be run (`invalid_suite`).
 */
export async function loadAttackSuite(file: string, options: { cwd?: string } = {}): Promise<AttackSuite> {
  const module = await importModule(resolve(options.cwd ?? process.cwd(), file));
  const [name, exported] =
    module.default !== undefined ? ['default export', module.default] : ["export 'suite'", module.suite];
  if (exported === undefined) {
    const names = Object.keys(module);
    throw new AttackSuiteError(
      'no_suite',
      `${file} exports no attack suite: export one as the default export or as 'suite' ` +
        `(export default { name, environment, inject, agent, model, tasks, injections }); ` +
        `it exports ${names.length === 0 ? 'nothing' : names.map((n) => `'${n}'`).join(', ')}.`,
    );
  }
  return checkAttackSuite(exported, `${file}'s ${name}`);
}
