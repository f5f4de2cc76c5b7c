import type { ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** One MCP session over HTTP: its SDK server and transport, and what the expiry needs to know of it. */
export interface HttpSession {
  readonly server: Server;
  readonly transport: StreamableHTTPServerTransport;
  /** Its requests whose responses have not ended (an open SSE stream, a tool call running). */
  inFlight: number;
  /** While it is idle: its expiry, and when that falls due. */
  expiry?: { timer: unknown; due: number };
}

/**
 * How the sessions wait: the platform's monotonic clock and timers. Not public: a test gives its
 * own, to expire sessions without waiting on the wall clock.
 */
export interface SessionClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

export const systemClock: SessionClock = {
  now: () => performance.now(),
  // Unreferenced: an idle session's expiry alone does not keep the process running.
  setTimeout: (run, ms) => setTimeout(run, ms).unref(),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

/**
 * The sessions of one HTTP server, bounded in number and in idleness. A session is pending from the
 * moment its `initialize` is admitted until the SDK gives it an id, then open; both count towards
 * `maxSessions`, and admission is decided and recorded in one step, so requests arriving together
 * cannot pass the limit together. An open session with no request in flight for `idleTimeoutMs` is
 * closed (its SDK server, hence its transport) and forgotten; one with a request in flight is never
 * closed by the limit or the expiry.
 */
export class HttpSessions {
  readonly #open = new Map<string, HttpSession>();
  readonly #pending = new Set<HttpSession>();
  readonly #limits: { maxSessions: number; idleTimeoutMs: number };
  readonly #clock: SessionClock;

  constructor(limits: { maxSessions: number; idleTimeoutMs: number }, clock: SessionClock) {
    this.#limits = limits;
    this.#clock = clock;
  }

  /** The open session with this id. */
  get(id: string): HttpSession | undefined {
    return this.#open.get(id);
  }

  /** Whether one more session may start: open and pending ones together are under the limit. */
  hasRoom(): boolean {
    return this.#open.size + this.#pending.size < this.#limits.maxSessions;
  }

  /** Counts a session starting (its `initialize` admitted) towards the limit. */
  admit(session: HttpSession): void {
    this.#pending.add(session);
  }

  /** The SDK gave an admitted session its id: it is open. */
  opened(id: string, session: HttpSession): void {
    this.#pending.delete(session);
    this.#open.set(id, session);
  }

  /** Its `initialize` was answered: a session that got no id is no longer counted (the caller closes it). */
  settled(session: HttpSession): void {
    this.#pending.delete(session);
    this.#idleCheck(session);
  }

  /** A session's transport closed (a DELETE, an expiry, the server stopping): forgotten, its expiry cancelled. */
  closed(session: HttpSession): void {
    this.#pending.delete(session);
    const id = session.transport.sessionId;
    if (id !== undefined && this.#open.get(id) === session) this.#open.delete(id);
    this.#cancelExpiry(session);
  }

  /** A request of the session: it is in use until the response ends (or its connection does). */
  track(session: HttpSession, res: ServerResponse): void {
    session.inFlight++;
    this.#cancelExpiry(session);
    res.once('close', () => {
      session.inFlight--;
      this.#idleCheck(session);
    });
  }

  /** Every session, open or pending: what closing the server closes. */
  all(): HttpSession[] {
    return [...this.#open.values(), ...this.#pending];
  }

  /** Seconds until a slot may free by itself: the soonest expiry of an idle session, else a whole idle timeout. */
  retryAfterSeconds(): number {
    const now = this.#clock.now();
    let soonest = now + this.#limits.idleTimeoutMs;
    for (const session of this.#open.values())
      if (session.expiry !== undefined) soonest = Math.min(soonest, session.expiry.due);
    return Math.max(1, Math.ceil((soonest - now) / 1000));
  }

  /** An open session with nothing in flight starts waiting for its expiry. */
  #idleCheck(session: HttpSession): void {
    const id = session.transport.sessionId;
    if (session.inFlight > 0 || session.expiry !== undefined || id === undefined || this.#open.get(id) !== session)
      return;
    const { idleTimeoutMs } = this.#limits;
    const timer = this.#clock.setTimeout(() => {
      session.expiry = undefined;
      this.#open.delete(id);
      void session.server.close();
    }, idleTimeoutMs);
    session.expiry = { timer, due: this.#clock.now() + idleTimeoutMs };
  }

  #cancelExpiry(session: HttpSession): void {
    if (session.expiry === undefined) return;
    this.#clock.clearTimeout(session.expiry.timer);
    session.expiry = undefined;
  }
}
