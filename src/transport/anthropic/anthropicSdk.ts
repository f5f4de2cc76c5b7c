import type Anthropic from '@anthropic-ai/sdk';

/** The SDK's client class, which carries its error classes too (`Anthropic.APIError`, ...). */
export type AnthropicSdk = typeof Anthropic;

let loaded: Promise<AnthropicSdk> | undefined;

/**
 * `@anthropic-ai/sdk`, imported on the first call and kept: importing legate does not load it (a few hundred
 * modules), only a live or scripted-stream send does. It is the same module a user's own `import Anthropic from
 * '@anthropic-ai/sdk'` gets, so a client they made, and the errors it throws, are the SDK's classes seen here. A
 * failed import is not kept: the next call tries again.
 */
export function loadAnthropicSdk(): Promise<AnthropicSdk> {
  loaded ??= import('@anthropic-ai/sdk').then(
    (sdk) => sdk.default,
    (error: unknown) => {
      loaded = undefined;
      throw error;
    },
  );
  return loaded;
}
