import { VERSION } from '@anthropic-ai/sdk/version';

/** The installed @anthropic-ai/sdk version, recorded so a replay can be traced to it. */
export function sdkVersion(): string {
  return VERSION;
}
