import { isPlainObject } from '../json/jsonValue.js';
import { enc, formPairs, type PairStyle } from './formPairs.js';

/** How one field of a form body is written: by its style and explode, or as JSON text (its `contentType`). */
interface FormField extends PairStyle {
  readonly json: boolean;
}

/** How an operation's request body is sent, and as which media type (its `content-type`). */
export type PlannedBody =
  | { readonly kind: 'json'; readonly mediaType: string }
  | { readonly kind: 'form'; readonly mediaType: string; readonly fields: ReadonlyMap<string, FormField> };

/** What an operation's `requestBody` is to its tool: a body (how it is sent, its schema), none, or a reason to skip. */
type BodyPlan =
  | {
      readonly body: PlannedBody;
      /** The media type's schema, dereferenced, not yet expanded; undefined when it has none. */
      readonly schema: unknown;
      readonly description: string;
      readonly required: boolean;
    }
  | { readonly none: true }
  | { readonly skip: string };

const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i;
const FORM_MEDIA = /^application\/x-www-form-urlencoded\s*(?:;.*)?$/i;
/** A form field the media type's `encoding` says nothing of: OpenAPI's default, style form, exploded. */
const FORM_DEFAULT: FormField = { style: 'form', explode: true, json: false };

/**
 * How an operation's request body (dereferenced) is sent: the first JSON media type (`application/json`,
 * `+json`) as JSON text, else `application/x-www-form-urlencoded` as form fields, each written as the
 * media type's `encoding` says (style, explode; JSON text for a `contentType` that is JSON). A body that is
 * optional and can hold nothing (every media type's schema an object with no properties and no others
 * allowed, as Stripe's GET and DELETE operations declare) is no body. Any other media type is a reason
 * to skip, as is a form whose schema is not an object of fields.
 */
export function bodyPlan(requestBody: unknown): BodyPlan {
  if (!isPlainObject(requestBody)) return { none: true };
  const content = isPlainObject(requestBody.content) ? requestBody.content : {};
  const types = Object.keys(content);
  const required = requestBody.required === true;
  if (!required && types.length > 0 && types.every((type) => holdsNothing(schemaOf(content[type]))))
    return { none: true };
  const description = typeof requestBody.description === 'string' ? requestBody.description : undefined;
  const json = types.find((type) => JSON_MEDIA.test(type));
  if (json !== undefined)
    return {
      body: { kind: 'json', mediaType: json },
      schema: schemaOf(content[json]),
      description: description ?? 'The request body (JSON).',
      required,
    };
  const form = types.find((type) => FORM_MEDIA.test(type));
  if (form === undefined)
    return {
      skip:
        `its request body is ${types.join(', ') || 'of no media type'}, neither JSON nor ` +
        'application/x-www-form-urlencoded; legate sends only those.',
    };
  const media = content[form];
  const schema = schemaOf(media);
  const type = isPlainObject(schema) ? schema.type : undefined;
  if (type !== undefined && type !== 'object' && !(Array.isArray(type) && type.includes('object')))
    return {
      skip:
        `its ${form} body is described as ${JSON.stringify(type)}, not as an object whose properties are ` +
        'the form fields; legate cannot tell which fields to send.',
    };
  return {
    body: { kind: 'form', mediaType: form, fields: formFields(isPlainObject(media) ? media.encoding : undefined) },
    schema,
    description: description ?? 'The request body: its properties are sent as form fields.',
    required,
  };
}

/** The body's text: JSON, or `name=value` pairs joined by `&`, each field written by its encoding. */
export function bodyText(body: PlannedBody, value: unknown): string {
  if (body.kind === 'json') return JSON.stringify(value);
  return Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .flatMap(([name, v]) => {
      const field = body.fields.get(name) ?? FORM_DEFAULT;
      return field.json ? [`${enc(name)}=${enc(JSON.stringify(v))}`] : formPairs(name, v, field);
    })
    .join('&');
}

function formFields(encoding: unknown): Map<string, FormField> {
  const fields = new Map<string, FormField>();
  if (!isPlainObject(encoding)) return fields;
  for (const [name, given] of Object.entries(encoding)) {
    if (!isPlainObject(given)) continue;
    const style = typeof given.style === 'string' ? given.style : 'form';
    fields.set(name, {
      style,
      explode: typeof given.explode === 'boolean' ? given.explode : style === 'form',
      json: typeof given.contentType === 'string' && JSON_MEDIA.test(given.contentType),
    });
  }
  return fields;
}

const schemaOf = (media: unknown): unknown => (isPlainObject(media) ? media.schema : undefined);

/** An object schema with no properties that allows no others: only `{}` passes it. */
function holdsNothing(schema: unknown): boolean {
  const none = (map: unknown) => map === undefined || (isPlainObject(map) && Object.keys(map).length === 0);
  return (
    isPlainObject(schema) &&
    (schema.type === undefined || schema.type === 'object') &&
    schema.additionalProperties === false &&
    none(schema.properties) &&
    none(schema.patternProperties)
  );
}
