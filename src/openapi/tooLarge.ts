import { isPlainObject } from '../json/jsonValue.js';
import type { ExpandedSizes } from './expandedSize.js';
import { OpenApiError } from './OpenApiError.js';
import { labelOf, METHODS } from './operations.js';

const pointer = (...tokens: string[]) =>
  `#/${tokens.map((t) => t.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
const counted = (n: number) => n.toLocaleString('en-US');

/**
 * The refusal of a document that expands past `maxNodes`, naming what expands: the first component
 * (a schema, a parameter, ...) past the bound, else the first operation, else the largest parts.
 */
export function tooLarge(api: Record<string, unknown>, sizes: ExpandedSizes, maxNodes: number): OpenApiError {
  const components: [string, number][] = [];
  const operations: [string, number][] = [];
  const others: [string, number][] = [];
  const sizeOf = (value: unknown) => (typeof value === 'object' && value !== null ? sizes.sizeOf(value) : 1);
  for (const [key, value] of Object.entries(api)) {
    if (key === 'components' && isPlainObject(value)) {
      for (const [type, entries] of Object.entries(value))
        if (isPlainObject(entries))
          for (const [name, entry] of Object.entries(entries))
            components.push([
              `the ${type === 'schemas' ? 'schema' : 'component'} '${pointer(key, type, name)}'`,
              sizeOf(entry),
            ]);
    } else if (key === 'paths' && isPlainObject(value)) {
      for (const [path, item] of Object.entries(value))
        if (isPlainObject(item))
          for (const method of METHODS)
            if (item[method] !== undefined)
              operations.push([`the operation ${labelOf(method, path)}`, sizeOf(item[method])]);
    } else others.push([`'${pointer(key)}'`, sizeOf(value)]);
  }
  const over = ([, size]: [string, number]) => size > maxNodes;
  const component = components.find(over);
  const operation = operations.find(over);
  const largest = [...components, ...operations, ...others]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([name, size]) => `${name} (${counted(size)})`)
    .join(', ');
  const subject = component?.[0] ?? operation?.[0] ?? 'its parts together';
  const also = component !== undefined && operation !== undefined ? ` (as does ${operation[0]})` : '';
  const parts = component === undefined && operation === undefined ? `; the largest: ${largest}` : '';
  return new OpenApiError(
    'openapi_too_large',
    `The OpenAPI document is too large to read: with its $refs followed (each replaced by a copy of what it ` +
      `points to), ${subject} ${subject.endsWith('together') ? 'expand' : 'expands'} to more than ` +
      `${counted(maxNodes)} nodes${also}, the most openApiTools reads ('maxDocumentNodes')${parts}. Types that use ` +
      'other types several times, many levels deep, multiply, and validating the document walks every copy. ' +
      "Select only the operations you need ('operationIds' or 'tags': what they do not reach is not read), " +
      "simplify the document, or raise 'maxDocumentNodes' if you trust it.",
  );
}
