import { isPlainObject } from '../json/jsonValue.js';
import { jsonValueCount } from '../json/jsonValueCount.js';
import { prepareSchema } from '../tools/schema/prepareSchema.js';
import {
  ExpansionBudget,
  ExpansionTooLarge,
  expandSchema,
  MAX_INPUT_SCHEMA_NODES,
  SelfContainingValue,
  UnresolvedRef,
} from './expandSchema.js';
import type { InputBudget } from './inputBudget.js';
import type { Operation } from './operations.js';
import { bodyPlan, type PlannedBody } from './requestBody.js';

/** The input property that holds an operation's request body. */
export const BODY = 'body';

/** A path or query parameter as a call serialises it. */
export interface PlannedParameter {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly style: string;
  readonly explode: boolean;
}

/** A header or cookie parameter the document declares optional, left out of the tool's input. */
interface LeftOutParameter {
  readonly name: string;
  readonly in: 'header' | 'cookie';
}

/** How a tool's input maps onto a request: its schema, its parameters, its body. */
export interface OperationInput {
  readonly schema: Record<string, unknown>;
  readonly parameters: readonly PlannedParameter[];
  /** How the body is sent, when the operation takes one. */
  readonly body: PlannedBody | undefined;
  /** Optional header and cookie parameters: never the model's to set, so not in the input. */
  readonly leftOut: readonly LeftOutParameter[];
}

/**
 * The tool input for an operation (path and query parameters by name, the body under `body`), or
 * why it cannot have one: a required header or cookie parameter, a body neither JSON nor a form, a
 * parameter described by `content`, two inputs of one name, a remote `$ref`.
 */
export function operationInput(operation: Operation, total: InputBudget): OperationInput | { skip: string } {
  try {
    return build(operation, new ExpansionBudget(total));
  } catch (error) {
    if (error instanceof ExpansionTooLarge) return { skip: tooLargeInput() };
    if (error instanceof SelfContainingValue)
      return {
        skip:
          `its schema's '${error.keyword}' contains itself (through a $ref), which no JSON can hold; write the ` +
          'value out in the document.',
      };
    if (!(error instanceof UnresolvedRef)) throw error;
    return {
      skip:
        `it uses the $ref '${error.ref}', which is outside the document; legate never fetches or reads one while ` +
        'reading a document. Bundle the document into one file first (e.g. npx @redocly/cli bundle).',
    };
  }
}

/** Why an operation whose input would be too large is skipped. */
export function tooLargeInput(): string {
  return (
    `its input, with every shared type copied where it is used, would be more than ${MAX_INPUT_SCHEMA_NODES} JSON ` +
    'values, its parameters and body together (types that use other types several times, many levels deep); ' +
    'select the operations you need from a document that describes this one more simply.'
  );
}

/**
 * Whether the tool's input schema, as it would be published (objects closed, constraints beside a union
 * copied into each alternative, the copies shared), is within {@link MAX_INPUT_SCHEMA_NODES}: counted before
 * the binder compiles it, which walks every copy, and spent from `total`. A schema the binder cannot check
 * throws its ToolDeclarationError, as defineTool would.
 */
export function publishedWithin(tool: string, schema: Record<string, unknown>, total: InputBudget): boolean {
  const size = jsonValueCount(prepareSchema(tool, schema).schema, MAX_INPUT_SCHEMA_NODES);
  total.spend(size);
  return size <= MAX_INPUT_SCHEMA_NODES;
}

function build(operation: Operation, budget: ExpansionBudget): OperationInput | { skip: string } {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const parameters: PlannedParameter[] = [];
  const leftOut: LeftOutParameter[] = [];
  for (const parameter of operation.parameters) {
    const name = String(parameter.name);
    const where = String(parameter.in);
    if (where === 'header' || where === 'cookie') {
      if (parameter.required === true)
        return {
          skip:
            `it requires the ${where} parameter '${name}', and legate never lets the model set headers or cookies ` +
            '(a model that can set headers can set Authorization).',
        };
      leftOut.push({ name, in: where });
      continue;
    }
    if (where !== 'path' && where !== 'query') return { skip: `its parameter '${name}' is in '${where}'.` };
    if (!isPlainObject(parameter.schema))
      return { skip: `its ${where} parameter '${name}' is described by 'content', not 'schema'.` };
    if (Object.hasOwn(properties, name)) return { skip: `two of its parameters are named '${name}' (path and query).` };
    properties[name] = expandSchema(parameter.schema, budget, parameter.description);
    if (where === 'path' || parameter.required === true) required.push(name);
    const style = typeof parameter.style === 'string' ? parameter.style : where === 'path' ? 'simple' : 'form';
    const explode = typeof parameter.explode === 'boolean' ? parameter.explode : style === 'form';
    parameters.push({ name, in: where, style, explode });
  }
  const plan = bodyPlan(operation.operation.requestBody);
  if ('skip' in plan) return plan;
  if ('body' in plan) {
    if (BODY in properties) return { skip: `it has a parameter named '${BODY}', the name its body takes.` };
    const schema = expandSchema(plan.schema ?? {}, budget, plan.description);
    // Form fields are an object's properties: a form's schema that says nothing of its type is one.
    properties[BODY] =
      plan.body.kind === 'form' && !(isPlainObject(schema) && schema.type !== undefined)
        ? { type: 'object', ...(isPlainObject(schema) ? schema : {}) }
        : schema;
    if (plan.required) required.push(BODY);
  }
  const schema: Record<string, unknown> = { type: 'object', properties, additionalProperties: false };
  if (required.length > 0) schema.required = required;
  return { schema, parameters, body: 'body' in plan ? plan.body : undefined, leftOut };
}
