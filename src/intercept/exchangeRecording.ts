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
import { samplesOf, withSamples } from '../trajectory/samplesOf.js';
import type { Trajectory } from '../trajectory/types.js';
import { jsonBody } from './apiHttp.js';
import { clientOf, isClaudeCode, type Client } from './clientOf.js';
import { messageOfEvents, parseSse, type Exchange } from './exchange.js';
import { forwardUpstream, type Upstream } from './forwardUpstream.js';
import { inPreviousOrder } from './previousOrder.js';
import { trajectoryOfExchanges } from './trajectoryOfExchanges.js';
import { underSharedHeader } from './sharedHeader.js';

interface RecordingSettings {
  file: string;
  shown: string;
  name: string | undefined;
  agent: string;
  normalise: NormalisationChoice;
  saveOptions: SaveOptions;
  /** How many samples will be recorded (one per run of a body; 1 without one). */
  samples: number;
}

/** One sample's traffic: each request's exchange and client, in the order sent; empty where no success came back. */
interface SampleTraffic {
  sent: ({ exchange: Exchange; client: Client } | undefined)[];
  unreadable?: UsageError;
  /** The sample as a trajectory, once it has ended (undefined: it recorded nothing). */
  ended?: { trajectory: Trajectory | undefined };
}

/**
 * A recording in progress: each request forwarded upstream, each successful answer kept as an exchange (in the
 * order the requests were sent), and on `save` the file written: normalised, grouped into conversations, in the
 * previous file's order of conversations, untouched when only the time would change. A recording of several samples
 * (one per run of a test's body: `nextSample`) writes them into the one file, each its own run.
 */
export class ExchangeRecording {
  readonly #samples: SampleTraffic[] = [{ sent: [] }];
  #previous: { trajectory: Trajectory | undefined } | undefined;
  #written: Trajectory | undefined;

  constructor(readonly settings: RecordingSettings) {}

  /** The file written, once `save` has written (or kept) it. */
  get written(): Trajectory | undefined {
    return this.#written;
  }

  async answer(request: Request, upstream: Upstream): Promise<Response> {
    // A clone: the request itself goes upstream.
    const body = await jsonBody(request.clone());
    // Not JSON: the API answers it (with an error), and there is nothing to record.
    if (body === undefined) return (await forwardUpstream(request, upstream)).response;
    const client = clientOf(request.headers);
    const sample = this.#samples.at(-1)!;
    const slot = sample.sent.push(undefined) - 1;
    const { response, received } = await forwardUpstream(request, upstream);
    if (received?.ok === true) {
      // What cannot be read is kept for save(): the client still gets the answer as the API sent it
      // (a throw here would become a 500, which a client retries: a second call to the API).
      try {
        sample.sent[slot] = { exchange: exchangeOf(body, received.contentType, received.text), client };
      } catch (error) {
        sample.unreadable ??= unreadableResponse(slot + 1, error);
      }
    }
    return response;
  }

  /** Ends the sample in progress and starts the next: the requests from now on are the next sample's. */
  nextSample(): void {
    this.endSample();
    this.#samples.push({ sent: [] });
  }

  /**
   * Ends the sample in progress (once): it as a trajectory (not yet redacted), or undefined when it recorded
   * nothing. Throws when an answer could not be read, or the traffic cannot be recorded as a trajectory.
   */
  endSample(): Trajectory | undefined {
    const sample = this.#samples.at(-1)!;
    sample.ended ??= { trajectory: this.#trajectoryOf(sample) };
    return sample.ended.trajectory;
  }

  /** As endSample, but a sample that recorded nothing is refused (`nothing_to_record`, saying `whyNothing`). */
  finishSample(whyNothing: string): Trajectory {
    return this.endSample() ?? this.#nothingIn(this.#samples.length, whyNothing);
  }

  /** Writes the file; `whyNothing` is said when a sample recorded no exchange. */
  async save(whyNothing: string): Promise<void> {
    const { file } = this.settings;
    this.endSample();
    const samples = this.#samples.map(({ ended }, i) => ended?.trajectory ?? this.#nothingIn(i + 1, whyNothing));
    const saveOptions = (trajectory: Trajectory): SaveOptions => ({
      ...this.settings.saveOptions,
      redactions: [
        ...(this.settings.saveOptions.redactions ?? []),
        ...normalisationRedactions(trajectory.normalised ?? []),
      ],
    });
    const prepared = (trajectory: Trajectory) => prepareTrajectory(trajectory, saveOptions(trajectory));
    const previous = this.#previousFile();
    const before = previous === undefined ? [] : samplesOf(previous);
    const inOrder = samples.map((sample, i) =>
      before[i] === undefined ? sample : inPreviousOrder(before[i], sample, prepared),
    );
    // The file's header is its first sample's first conversation's: each later sample puts its own such one first.
    const ordered = inOrder.map((sample, i) =>
      i === 0 ? sample : underSharedHeader(inOrder[0]!, sample, i + 1, prepared),
    );
    const trajectory = withSamples(ordered);
    // A re-recording that changes nothing but the time leaves the file as it was: no churn in git.
    if (previous !== undefined && sameButTime(previous, trajectory, saveOptions(trajectory))) this.#written = previous;
    else this.#written = saveTrajectory(file, trajectory, saveOptions(trajectory));
  }

  #nothingIn(sample: number, whyNothing: string): never {
    const { shown, samples } = this.settings;
    const which = samples === 1 ? '' : ` in sample ${sample} of ${samples}`;
    throw new UsageError(
      'nothing_to_record',
      `No Messages API request was intercepted${which}, so ${shown} has nothing. ${whyNothing}`,
    );
  }

  /** One sample's exchanges as a trajectory: normalised, grouped into conversations; undefined when it has none. */
  #trajectoryOf(sample: SampleTraffic): Trajectory | undefined {
    if (sample.unreadable !== undefined) throw sample.unreadable;
    const sent = sample.sent.filter((entry) => entry !== undefined);
    if (sent.length === 0) return undefined;
    const normalised = resolveNormalisations(
      this.settings.normalise,
      sent.some(({ client }) => isClaudeCode(client)),
    );
    const { file } = this.settings;
    return trajectoryOfExchanges({
      name: this.settings.name ?? this.#previousFile()?.name ?? basename(file, extname(file)),
      agent: this.settings.agent,
      exchanges: sent.map(({ exchange }) => ({ ...exchange, request: normaliseRequest(exchange.request, normalised) })),
      recordedAt: new Date(),
      client: sent[0]!.client,
      normalised,
    });
  }

  /** The file as it was before this recording, read once (an unreadable one is simply replaced). */
  #previousFile(): Trajectory | undefined {
    const { file } = this.settings;
    this.#previous ??= { trajectory: existsSync(file) ? tryLoad(file) : undefined };
    return this.#previous.trajectory;
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
