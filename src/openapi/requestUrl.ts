import { isPlainObject } from '../json/jsonValue.js';
import { enc, formPairs } from './formPairs.js';
import type { PlannedParameter } from './operationInput.js';

/** A path parameter whose value would change the request's path rather than fill its segment. */
export class PathEscape extends Error {
  constructor(readonly parameter: string) {
    super(parameter);
  }
}

/**
 * The request URL: `baseUrl` + the path with each parameter filled, + the query (each parameter by
 * its style: {@link formPairs}). Every value is percent-encoded with encodeURIComponent (so `/`, `?`,
 * `#` and `%` stay inside the value), and a path whose segment would be empty, `.` or `..` (which URL
 * parsers remove or resolve) is refused with {@link PathEscape}: a model-supplied value never leaves
 * its segment.
 */
export function requestUrl(
  baseUrl: string,
  path: string,
  parameters: readonly PlannedParameter[],
  args: Readonly<Record<string, unknown>>,
): string {
  let filled = path;
  for (const parameter of parameters) {
    if (parameter.in !== 'path') continue;
    const value = pathValue(parameter, args[parameter.name]);
    filled = filled.replaceAll(`{${parameter.name}}`, () => value);
    const before = path.split('/');
    filled.split('/').forEach((segment, i) => {
      if (before[i] !== segment && (segment === '' || segment === '.' || segment === '..'))
        throw new PathEscape(parameter.name);
    });
  }
  const query = parameters
    .filter((parameter) => parameter.in === 'query' && args[parameter.name] !== undefined)
    .flatMap((parameter) => formPairs(parameter.name, args[parameter.name], parameter));
  return `${baseUrl.replace(/\/+$/, '')}${filled}${query.length === 0 ? '' : `?${query.join('&')}`}`;
}

/** A path value by its style: simple (`a,b`), label (`.a.b`), matrix (`;id=a,b`). */
function pathValue(parameter: PlannedParameter, value: unknown): string {
  const { name, style, explode } = parameter;
  const items = Array.isArray(value)
    ? value.map(enc)
    : isPlainObject(value)
      ? Object.entries(value).flatMap(([k, v]) => (explode ? [`${enc(k)}=${enc(v)}`] : [enc(k), enc(v)]))
      : [enc(value)];
  if (style === 'label') return `.${items.join(explode ? '.' : ',')}`;
  if (style === 'matrix') {
    if (explode && Array.isArray(value)) return items.map((item) => `;${enc(name)}=${item}`).join('');
    if (explode && isPlainObject(value)) return items.map((item) => `;${item}`).join('');
    return `;${enc(name)}=${items.join(',')}`;
  }
  return items.join(',');
}
