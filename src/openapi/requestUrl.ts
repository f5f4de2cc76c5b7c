import { isPlainObject } from '../json/jsonValue.js';
import type { PlannedParameter } from './operationInput.js';

/** A path parameter whose value would change the request's path rather than fill its segment. */
export class PathEscape extends Error {
  constructor(readonly parameter: string) {
    super(parameter);
  }
}

/**
 * The request URL: `baseUrl` + the path with each parameter filled, + the query. Every value is
 * percent-encoded with encodeURIComponent (so `/`, `?`, `#` and `%` stay inside the value), and a
 * path whose segment would be empty, `.` or `..` (which URL parsers remove or resolve) is refused
 * with {@link PathEscape}: a model-supplied value never leaves its segment.
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
    .flatMap((parameter) => queryPairs(parameter, args[parameter.name]));
  return `${baseUrl.replace(/\/+$/, '')}${filled}${query.length === 0 ? '' : `?${query.join('&')}`}`;
}

const enc = (value: unknown): string => encodeURIComponent(scalar(value));

function scalar(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
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

/** `name=value` pairs by the parameter's style: form, spaceDelimited, pipeDelimited, deepObject. */
function queryPairs(parameter: PlannedParameter, value: unknown): string[] {
  const { style, explode } = parameter;
  const name = enc(parameter.name);
  if (Array.isArray(value)) {
    if (explode) return value.map((item) => `${name}=${enc(item)}`);
    const separator = style === 'spaceDelimited' ? '%20' : style === 'pipeDelimited' ? '|' : ',';
    return [`${name}=${value.map(enc).join(separator)}`];
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (style === 'deepObject') return entries.map(([k, v]) => `${name}%5B${enc(k)}%5D=${enc(v)}`);
    if (explode) return entries.map(([k, v]) => `${enc(k)}=${enc(v)}`);
    return [`${name}=${entries.map(([k, v]) => `${enc(k)},${enc(v)}`).join(',')}`];
  }
  return [`${name}=${enc(value)}`];
}
