import type { SetupServer } from 'msw/node';

/**
 * Lets a client cancel the body of a response that passed through msw, so a client that retries
 * (the SDK cancels a 429's or 5xx's body before it retries) or stops reading a stream goes on.
 *
 * msw 2.15's fetch interceptor tees every response it hands on (mocked or passed through) to give
 * the copy to its `response:*` life-cycle events, and nobody reads that copy. Cancelling one branch
 * of a tee settles only once the other branch is cancelled or read to its end, so the client's
 * `body.cancel()` never settled (mswjs/interceptors#799). Reading each copy to its end, discarding
 * it, settles that cancel; the client's branch is untouched. The copy is read, not cancelled: the
 * http interceptor's copy is a stream fed from the socket that fails when cancelled before its end.
 */
export function releaseResponseCopies(server: Pick<SetupServer, 'events'>): void {
  const release = ({ response }: { response: Response }) => {
    if (response.body !== null) void readToTheEnd(response.body.getReader());
  };
  server.events.on('response:mocked', release);
  server.events.on('response:bypass', release);
}

/** Reads a stream to its end, or to its error, and drops what it read: a loop of reads makes less than a pipe. */
async function readToTheEnd(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  try {
    while (!(await reader.read()).done);
  } catch {
    // A copy that fails (its client's request aborted) has nothing more to release.
  }
}
