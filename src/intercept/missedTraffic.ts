import type { ChildProcess } from 'node:child_process';
import diagnostics from 'node:diagnostics_channel';
import type { loadMsw } from './interceptionServer.js';

type Msw = Awaited<ReturnType<typeof loadMsw>>['msw'];

/** What an interception saw that may explain why no request reached it. */
interface Missed {
  /** Messages API requests (a POST to a path ending in `/messages`) to URLs the interception does not cover. */
  uncovered: string[];
  /** The programs of the child processes started while it was in force. */
  children: string[];
}

/**
 * Watches, while an interception is in force, for what would explain an empty recording: Messages API requests
 * to a base URL it does not cover (seen by a last msw handler that answers nothing, so they go on as before), and
 * child processes started (Node's `child_process` diagnostics channel), whose requests never pass through here.
 */
export function watchForMisses(covered: readonly string[]) {
  const uncovered = new Set<string>();
  const children: ChildProcess[] = [];
  const onChild = (child: ChildProcess) => children.push(child);
  watchChildren();
  watching.add(onChild);
  return {
    handler: (msw: Msw) =>
      msw.http.all('*', ({ request }) => {
        const url = new URL(request.url);
        const at = `${url.origin}${url.pathname}`;
        if (request.method === 'POST' && /\/messages\/?$/.test(url.pathname) && !covered.includes(at))
          uncovered.add(at);
      }),
    seen: (): Missed => ({
      uncovered: [...uncovered],
      children: children.map((child) => child.spawnfile ?? 'a program'),
    }),
    stop: () => watching.delete(onChild),
  };
}

/** What each watch in force does with a child process started. */
const watching = new Set<(child: ChildProcess) => void>();
let subscribed = false;

/**
 * Subscribes, once per process, to the child processes started, for every watch in force. The subscriber stays:
 * subscribing and unsubscribing for each interception switches the channel's prototype each time (about 0.1 ms).
 */
function watchChildren(): void {
  if (subscribed) return;
  subscribed = true;
  diagnostics.subscribe('child_process', (message) => {
    const child = (message as { process?: ChildProcess }).process;
    if (child !== undefined) for (const onChild of watching) onChild(child);
  });
}

/** Why no request reached an interception: each cause it saw, else the one it cannot see (a client made early). */
export function whyNothingArrived(missed: Missed): string {
  const causes: string[] = [];
  if (missed.uncovered.length > 0)
    causes.push(
      `Messages API requests went to ${missed.uncovered.join(', ')}, which the interception does not cover: give ` +
        "that base URL (the part before /v1/messages) as interceptAnthropic's baseURL.",
    );
  if (missed.children.length > 0)
    causes.push(
      `A child process was started while intercepting (${[...new Set(missed.children)].join(', ')}): a client ` +
        'in another process sends around this one. Record it through the recording proxy (startRecordingProxy, ' +
        'or `legate proxy --record <file> -- <command>`; docs/intercept.md, The recording proxy).',
    );
  if (causes.length > 0) return causes.join(' ');
  return `${MADE_BEFORE} A client in another process is recorded through the recording proxy (startRecordingProxy).`;
}

/** Why a client's requests may never reach an interception, and what to do: said where nothing else explains it. */
const MADE_BEFORE =
  'A client takes `fetch` when it is made, so one made before the interception started (such as a ' +
  '`new Anthropic()` at the top of a module) sends its requests around it. Make the client after ' +
  'interceptAnthropic is called, or start intercepting first with startInterception() in a test setup file ' +
  "(docs/intercept.md, 'Clients made early').";
