import { copyValue } from '../../json/copyValue.js';
import { describeValue } from '../../json/describeValue.js';
import { isPlainObject } from '../../json/jsonValue.js';
import type { ToolDeclarationWarning } from '../declarationError.js';
import type { PublishedSchema } from './publishedSchema.js';
import { SchemaNormaliser } from './schemaNormaliser.js';
import { SchemaProblems } from './schemaProblems.js';

/**
 * Reads a tool's input schema as JSON Schema 2020-12 (draft-04/07 and OpenAPI 3.0 spellings
 * accepted), reports every construct the binder cannot check in one error, and returns the
 * schema the model will be shown, normalised so the binder, the fuzzers and the model read the
 * same thing: `allOf` merged, constraints beside `anyOf`/`oneOf` moved into each alternative,
 * `$ref`s kept (as JSON pointers) with their targets normalised in place, and
 * `additionalProperties: false` on every object that declares properties and says nothing else
 * (the binder refuses unknown arguments there, so the model is told so). See docs/tools.md.
 */
export function prepareSchema(tool: string, schema: unknown, fromZod = false): PreparedSchema {
  const problems = new SchemaProblems(tool);
  if (!isPlainObject(schema)) {
    problems.add(
      'input',
      'invalid_schema',
      `a tool's input must be an object schema ({ type: 'object', properties: ... }) or a zod object, but it ` +
        `was ${describeValue(schema)}.`,
    );
    problems.throwIfAny();
  }
  // A copy of its own: the author's object is never changed, and nothing of the published one is shared with it.
  const published = new SchemaNormaliser(copyValue(schema as Record<string, unknown>), problems, fromZod).run();
  problems.throwIfAny();
  return { schema: published, warnings: problems.warnings };
}

interface PreparedSchema {
  schema: PublishedSchema;
  warnings: ToolDeclarationWarning[];
}
