import { UsageError } from '../errors/UsageError.js';

/**
 * A base URL the API is reached at, checked: an http(s) URL, given back without trailing slashes. `source` names where
 * it came from in the refusal (an option, an environment variable).
 */
export function httpBase(base: string, source: string): string {
  let url: URL | undefined;
  try {
    url = new URL(base);
  } catch {}
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new UsageError(
      'invalid_intercept_option',
      `${source} must be an http(s) URL such as 'http://127.0.0.1:8080', but it was ${JSON.stringify(base)}.`,
    );
  return base.replace(/\/+$/, '');
}
