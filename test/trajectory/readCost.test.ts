import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import YAML from 'yaml';
import { TrajectoryFormatError, parseTrajectory } from '../../src/index.js';
import { caught } from '../support/caught.js';

const corpus = readFileSync('trajectories/tool-loop.yaml', 'utf8');

/** A ~1 MB trajectory whose tool input is one wide mapping: the shape that made the careful reader slow. */
function wideFile(keys: number, firstValue: string): string {
  const wide = Array.from({ length: keys }, (_, i) => `              key${i}: value number ${i}`).join('\n');
  const text = corpus.replace('              orderId: A-1001', `              orderId: ${firstValue}\n${wide}`);
  expect(text).not.toBe(corpus);
  return text;
}

describe("what the reader refuses early, from the parser's tokens, without composing the document", () => {
  afterEach(() => vi.restoreAllMocks());

  it('refuses an anchor in a ~1 MB file from the tokens alone, with its line and column', () => {
    const text = wideFile(30_000, '&a A-1001');
    expect(text.length).toBeGreaterThan(900_000);
    const careful = vi.spyOn(YAML.Composer.prototype, 'compose');
    const error = caught(() => parseTrajectory(text, 'wide.yaml'), TrajectoryFormatError);
    expect(careful).not.toHaveBeenCalled();
    expect(error.problem).toContain('YAML anchors (&a)');
    expect(text.split('\n')[error.line! - 1]!.slice(error.column! - 1)).toBe('&a A-1001');
  });

  it('refuses a file of 20,000 anchors at the first, without composing it', () => {
    const anchors = Array.from({ length: 20_000 }, (_, i) => `              key${i}: &anchor${i} value`).join('\n');
    const text = corpus.replace('              orderId: A-1001', `              orderId: A-1001\n${anchors}`);
    const careful = vi.spyOn(YAML.Composer.prototype, 'compose');
    const error = caught(() => parseTrajectory(text, 'anchors.yaml'), TrajectoryFormatError);
    expect(careful).not.toHaveBeenCalled();
    expect(error.problem).toContain('YAML anchors (&anchor0)');
  });

  it('refuses aliases and tags the same way', () => {
    const careful = vi.spyOn(YAML.Composer.prototype, 'compose');
    expect(caught(() => parseTrajectory(wideFile(1000, '*a'), 'alias.yaml'), TrajectoryFormatError).problem).toContain(
      'YAML aliases (*a)',
    );
    expect(
      caught(() => parseTrajectory(wideFile(1000, '!!str A-1001'), 'tag.yaml'), TrajectoryFormatError).problem,
    ).toContain('YAML tags (!!str)');
    expect(careful).not.toHaveBeenCalled();
  });

  it('locates a field error in a wide mapping without the quadratic duplicate-key check', () => {
    // A field of the wrong type needs the careful reader to find its line; it must not compare every key with every
    // other.
    const text = wideFile(2000, 'A-1001').replace('maxTokens: 1024', 'maxTokens: lots');
    const careful = vi.spyOn(YAML.Composer.prototype, 'compose');
    const toJS = vi.spyOn(YAML.Document.prototype, 'toJS');
    const error = caught(() => parseTrajectory(text, 'wide.yaml'), TrajectoryFormatError);
    expect(careful).toHaveBeenCalledTimes(1);
    expect((toJS.mock.contexts[0] as YAML.Document).options).toMatchObject({ uniqueKeys: false });
    expect(error.path).toBe('request.maxTokens');
  });
});
