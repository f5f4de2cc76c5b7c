/**
 * The Messages API's rule for the property names at the top level of a tool's `input_schema`. A
 * request with one tool that breaks it is refused whole: HTTP 400, `invalid_request_error`,
 * "tools.N.custom.input_schema.properties: Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'".
 * The API checks the top level only (a property of a property, of an array's items or of a
 * definition may have any name): see docs/tools.md, 'Property names', for the reports that show it.
 */
export const PROPERTY_NAME_PATTERN = /^[a-zA-Z0-9_.-]{1,64}$/;

/** The longest name the rule allows. */
export const MAX_PROPERTY_NAME_LENGTH = 64;

/** The rule in words, as an error states it. */
export const PROPERTY_NAME_RULE = "1 to 64 letters (a-z, A-Z), digits, '_', '.' or '-'";

export function isAllowedPropertyName(name: string): boolean {
  return PROPERTY_NAME_PATTERN.test(name);
}
