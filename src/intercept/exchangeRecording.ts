import { existsSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { UsageError } from '../errors/UsageError.js';
import { parseModelResponse } from '../messages/parseModelResponse.js';
import type { MessagesRequest } from '../messages/types.js';
import {
  normalisationRedactions,
  normaliseRequest,
  resolveNormalisations,
  type NormalisationChoice,
} from '../trajectory/normalisations.js';
import { serializeTrajectory } from '../trajectory/serialize.js';
import { loadTrajectory, prepareTrajectory, saveTrajectory, type SaveOptions } from '../trajectory/trajectoryFile.js';
import type { Trajectory } from '../trajectory/types.js';
import { jsonBody } from './apiHttp.js';
import { clientOf, isClaudeCode, type Client } from './clientOf.js';
import { messageOfEvents, parseSse, type Exchange } from './exchange.js';
import { forwardUpstream, type Upstream } from './forwardUpstream.js';
import { inPreviousOrder } from './previousOrder.js';
import { trajectoryOfExchanges } from './trajectoryOfExchanges.js';

interface RecordingSettings {
  file: string;
  shown: string;
  name: string | undefined;
  agent: string;
  normalise: NormalisationChoice;
  saveOptions: SaveOptions;
}

/**
 * A recording in progress: each request forwarded upstream, each successful answer kept as an exchange (in the
 * order the requests were sent), and on `save` the file written: normalised, grouped into conversations, in the
 * previous file's order of conversations, untouched when only the time would change.
 */
export class ExchangeRecording {
  /** Each request's exchange and client, in the order the requests were sent; empty where no success came back. */
  readonly #sent: ({ exchange: Exchange; client: Client } | undefined)[] = [];
  #unreadable: UsageError | undefined;
  #written: Trajectory | undefined;

  constructor(readonly settings: RecordingSettings) {}

  /** The file written, once `save` has written (or kept) it. */
  get written(): Trajectory | undefined {
    return this.#written;
  }

  async answer(request: Request, upstream: Upstream): Promise<Response> {
    const body = await jsonBody(request);
    // Not JSON: the API answers it (with an error), and there is nothing to record.
    if (body === undefined) return (await forwardUpstream(request, upstream)).response;
    const client = clientOf(request.headers);
    const slot = this.#sent.push(undefined) - 1;
    const { response, received } = await forwardUpstream(request, upstream);
    if (received?.ok === true) {
      // What cannot be read is kept for save(): the client still gets the answer as the API sent it
      // (a throw here would become a 500, which a client retries: a second call to the API).
      try {
        this.#sent[slot] = { exchange: exchangeOf(body, received.contentType, received.text), client };
      } catch (error) {
        this.#unreadable ??= unreadableResponse(slot + 1, error);
      }
    }
    return response;
  }

  /** Writes the file; `whyNothing` is said when no exchange was recorded. */
  async save(whyNothing: string): Promise<void> {
    const { file, shown } = this.settings;
    if (this.#unreadable !== undefined) throw this.#unreadable;
    const sent = this.#sent.filter((entry) => entry !== undefined);
    if (sent.length === 0)
      throw new UsageError(
        'nothing_to_record',
        `No Messages API request was intercepted, so ${shown} has nothing. ${whyNothing}`,
      );
    const normalised = resolveNormalisations(
      this.settings.normalise,
      sent.some(({ client }) => isClaudeCode(client)),
    );
    const saveOptions: SaveOptions = {
      ...this.settings.saveOptions,
      redactions: [...(this.settings.saveOptions.redactions ?? []), ...normalisationRedactions(normalised)],
    };
    const previous = existsSync(file) ? tryLoad(file) : undefined;
    const recorded = trajectoryOfExchanges({
      name: this.settings.name ?? previous?.name ?? basename(file, extname(file)),
      agent: this.settings.agent,
      exchanges: sent.map(({ exchange }) => ({ ...exchange, request: normaliseRequest(exchange.request, normalised) })),
      recordedAt: new Date(),
      client: sent[0]!.client,
      normalised,
    });
    const trajectory =
      previous === undefined
        ? recorded
        : inPreviousOrder(previous, recorded, (next) => prepareTrajectory(next, saveOptions));
    // A re-recording that changes nothing but the time leaves the file as it was: no churn in git.
    if (previous !== undefined && sameButTime(previous, trajectory, saveOptions)) this.#written = previous;
    else this.#written = saveTrajectory(file, trajectory, saveOptions);
  }
}

function exchangeOf(request: MessagesRequest, contentType: string, text: string): Exchange {
  if (!contentType.includes('text/event-stream'))
    return { request, response: parseModelResponse(JSON.parse(text), 'The API') };
  const events = parseSse(text);
  return { request, response: messageOfEvents(events), events };
}

/** A successful answer that is not a Messages API response legate can read, as the error save() throws. */
function unreadableResponse(request: number, error: unknown): UsageError {
  const reason = error instanceof Error ? error.message : String(error);
  return new UsageError(
    'intercept_unsupported',
    `The answer to intercepted request ${request} is not a Messages API response legate can read (${reason}), ` +
      'so the traffic was not recorded. The client got it as sent.',
    { cause: error },
  );
}

/** Whether the file already holds what would be saved, but for the time it was recorded. */
function sameButTime(previous: Trajectory, next: Trajectory, saveOptions: SaveOptions): boolean {
  const prepared = prepareTrajectory(next, saveOptions);
  return serializeTrajectory(previous) === serializeTrajectory({ ...prepared, recordedAt: previous.recordedAt });
}

/** An unreadable old file is simply replaced. */
function tryLoad(file: string): Trajectory | undefined {
  try {
    return loadTrajectory(file);
  } catch {
    return undefined;
  }
}
