import { describeValue } from '../../json/describeValue.js';
import type { AttackSuite } from './attackSuite.js';
import { AttackSuiteError } from './attackSuiteError.js';

const SHAPE =
  'an AttackSuite: { name, environment(), inject(env, text), agent(env, mode, transport), model(), tasks, injections }';

/**
 * Checks everything an attack suite is made of before any run, and says the first thing wrong:
 * its name, its functions, each task's and injection's fields, and that no two tasks (or two
 * injections) share an id, since the report and the trajectory files are named after them.
 * Throws an {@link AttackSuiteError} `invalid_suite`.
 */
export function checkAttackSuite(suite: unknown, where = 'the attack suite'): AttackSuite {
  const fail = (problem: string): never => {
    throw new AttackSuiteError('invalid_suite', `${where} must be ${SHAPE}, but ${problem}.`);
  };
  if (typeof suite !== 'object' || suite === null) fail(`it is ${describeValue(suite)}`);
  const s = suite as Partial<Record<keyof AttackSuite, unknown>>;
  if (typeof s.name !== 'string' || s.name.trim() === '') fail(`its 'name' is ${describeValue(s.name)}`);
  for (const key of ['environment', 'inject', 'agent', 'model'] as const)
    if (typeof s[key] !== 'function') fail(`its '${key}' is ${describeValue(s[key])}, not a function`);
  items(s.tasks, 'tasks', fail, { prompt: 'string', writeAfterRead: 'boolean', done: 'function', asked: 'function' });
  if ((s.tasks as unknown[]).length === 0) fail(`its 'tasks' is empty: give at least one user task`);
  items(s.injections, 'injections', fail, {
    goal: 'string',
    text: 'string',
    attackerValue: 'boolean',
    achieved: 'function',
  });
  return suite as AttackSuite;
}

function items(list: unknown, key: string, fail: (problem: string) => never, fields: Record<string, string>): void {
  if (!Array.isArray(list)) fail(`its '${key}' is ${describeValue(list)}, not an array`);
  const seen = new Set<string>();
  (list as unknown[]).forEach((item, i) => {
    const at = `${key}[${i}]`;
    if (typeof item !== 'object' || item === null) fail(`${at} is ${describeValue(item)}`);
    const id = (item as { id?: unknown }).id;
    if (typeof id !== 'string' || id.trim() === '') fail(`${at}.id is ${describeValue(id)}, not a non-empty string`);
    if (seen.has(id as string)) fail(`${at}.id ${JSON.stringify(id)} is used twice in '${key}': give each its own id`);
    seen.add(id as string);
    for (const [field, type] of Object.entries(fields)) {
      const value = (item as Record<string, unknown>)[field];
      if (typeof value !== type)
        fail(`${at}.${field} (id ${JSON.stringify(id)}) is ${describeValue(value)}, not a ${type}`);
    }
  });
}
