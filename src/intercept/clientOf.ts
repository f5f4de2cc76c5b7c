/** The client that sent a request, as its headers name it: the `client:` a file at the HTTP boundary records. */
export interface Client {
  /** The `user-agent` header. */
  userAgent?: string;
  /** The SDK, as its `x-stainless-lang` and `x-stainless-package-version` name it (`js 0.122.0`). */
  sdk?: string;
  /** The `x-app` header: Claude Code sends `cli`. */
  app?: string;
}

/** What a request's headers say of its client; a field whose header is absent is left out. */
export function clientOf(headers: Headers): Client {
  const client: Client = {};
  const userAgent = headers.get('user-agent')?.trim();
  if (userAgent) client.userAgent = userAgent;
  const version = headers.get('x-stainless-package-version')?.trim();
  if (version) client.sdk = [headers.get('x-stainless-lang')?.trim(), version].filter(Boolean).join(' ');
  const app = headers.get('x-app')?.trim();
  if (app) client.app = app;
  return client;
}

/** Whether a client is Claude Code (the Claude Agent SDK's binary): `x-app: cli`, or its `claude-cli/` user agent. */
export function isClaudeCode(client: Client): boolean {
  return client.app === 'cli' || /^claude-cli\//.test(client.userAgent ?? '');
}
