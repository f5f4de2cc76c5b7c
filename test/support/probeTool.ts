import { defineTool, type InvalidArgument, type JsonSchema } from '../../src/index.js';

/**
 * A tool `probe` with one argument `v` of the given schema, optional unless `required`. Defined where it is asked
 * for: a test that defines its tool inside it has the schema compiled there, so a mutation run's mutant in the
 * schema compiler is active when it runs (a tool defined at module load is compiled once, before any mutant is on).
 */
export function probeTool(schema: Record<string, unknown>, required = false) {
  return defineTool({
    name: 'probe',
    description: 'Probes.',
    input: { type: 'object', properties: { v: schema as JsonSchema }, ...(required ? { required: ['v'] } : {}) },
    run: () => 'ok',
  });
}

/** `ok` when the probe of the schema binds the value, else the code it refuses the value with. */
export function probeOutcome(schema: Record<string, unknown>, value: unknown): string {
  const result = probeTool(schema).bind({ v: value });
  return result.ok ? 'ok' : result.invalid.code;
}

/** The refusal the probe of the schema gives the value (the test fails if the value binds). */
export function probeRefusal(schema: Record<string, unknown>, value: unknown): InvalidArgument {
  const result = probeTool(schema).bind({ v: value });
  if (result.ok) throw new Error(`expected ${JSON.stringify(value)} to be refused`);
  return result.invalid;
}
