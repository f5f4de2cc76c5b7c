import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { interceptAnthropic } from '../../src/intercept/index.js';
import { useTempDir } from '../support/tempDir.js';
import { counter, setupFor } from './capturedConversations.js';
import { createLoop } from './toolLoops.js';
import { capturedResponse, startUpstream } from './upstream.js';

// Issue 31: a tool result holding one run of base64 of 8 MiB (an image) overflowed the stack in the secret scan, so
// close() failed and the recording was lost.
const tempDir = useTempDir();
const IMAGE = 'iVBORw0KGgoAAAANSUhEUgAA'.repeat((8 * 1024 * 1024) / 24);

describe('recording a tool result with an 8 MiB run of base64', () => {
  it('close() saves the recording', async () => {
    const upstream = await startUpstream(counter.captures.map(capturedResponse));
    const file = join(tempDir(), 'image.yaml');
    try {
      const interception = await interceptAnthropic({ file, config: false, mode: 'record', baseURL: upstream.url });
      let calls = 0;
      try {
        // The first call's result is the image; the conversation's other calls get a short one.
        await createLoop(setupFor(counter, upstream.url, { run: () => (calls++ === 0 ? IMAGE : 'done') }));
      } finally {
        await interception.close();
      }
    } finally {
      await upstream.close();
    }
    expect(readFileSync(file, 'utf8')).toContain(IMAGE.slice(0, 1024));
  });
});
