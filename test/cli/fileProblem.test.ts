import { describe, expect, it } from 'vitest';
import { fileProblem } from '../../cli/fileProblem.js';

describe('fileProblem: the one-line verdict for a file that could not be read', () => {
  it('names the file once, as shown, for an error that names it itself (one the reader may add)', () => {
    class TrajectoryReadError extends Error {
      override name = 'TrajectoryReadError';
    }
    const error = new TrajectoryReadError('/abs/t/x.yaml: is a FIFO, not a regular file;\n  it was not read.');
    expect(fileProblem('t/x.yaml', error, '/abs/t/x.yaml')).toBe(
      't/x.yaml: is a FIFO, not a regular file; it was not read.',
    );
  });

  it('gives an error nobody expected its class and message, on one line', () => {
    expect(fileProblem('t/x.yaml', new RangeError('Maximum call stack size exceeded\nat depth'))).toBe(
      't/x.yaml: RangeError: Maximum call stack size exceeded at depth',
    );
    expect(fileProblem('t/x.yaml', 'a string')).toBe('t/x.yaml: string thrown: a string');
  });

  it('says what the system said about a file it could not read, without the path again', () => {
    const error = Object.assign(new Error("EISDIR: illegal operation on a directory, read '/abs/t/x.yaml'"), {
      code: 'EISDIR',
    });
    expect(fileProblem('t/x.yaml', error, '/abs/t/x.yaml')).toBe(
      't/x.yaml: cannot be read: illegal operation on a directory (EISDIR)',
    );
  });
});
