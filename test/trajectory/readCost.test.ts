import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import YAML from 'yaml';
import { TrajectoryFormatError, parseTrajectory } from '../../src/index.js';
import { MAX_DOCUMENT_DEPTH } from '../../src/trajectory/limits.js';
import { caught } from '../support/caught.js';

const corpus = readFileSync('trajectories/tool-loop.yaml', 'utf8');

/** A ~1 MB trajectory whose tool input is one wide mapping: the shape that made the careful reader slow. */
function wideFile(keys: number, firstValue: string): string {
  const wide = Array.from({ length: keys }, (_, i) => `              key${i}: value number ${i}`).join('\n');
  const text = corpus.replace('              orderId: A-1001', `              orderId: ${firstValue}\n${wide}`);
  expect(text).not.toBe(corpus);
  return text;
}

describe('what the reader refuses early, where it is, without reading the rest or composing the document', () => {
  afterEach(() => vi.restoreAllMocks());

  it('refuses an anchor near the top of a ~1 MB file without reading the rest, with its line and column', () => {
    const text = wideFile(30_000, '&a A-1001');
    expect(text.length).toBeGreaterThan(900_000);
    const careful = vi.spyOn(YAML.Composer.prototype, 'compose');
    const lexemes = vi.spyOn(YAML.Parser.prototype, 'next');
    const error = caught(() => parseTrajectory(text, 'wide.yaml'), TrajectoryFormatError);
    expect(careful).not.toHaveBeenCalled();
    // The file holds some 200,000 lexemes; the anchor comes within its first thousand.
    expect(lexemes.mock.calls.length).toBeLessThan(1000);
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

  it('refuses a 2 MB nest at the level past the limit without reading the rest', () => {
    const depth = 1_000_000;
    const text = corpus.replace('orderId: A-1001', `orderId: ${'['.repeat(depth)}${']'.repeat(depth)}`);
    const lexemes = vi.spyOn(YAML.Parser.prototype, 'next');
    const error = caught(() => parseTrajectory(text, 'deep.yaml'), TrajectoryFormatError);
    expect(error.problem).toContain(`deeper than the ${MAX_DOCUMENT_DEPTH} levels`);
    // Of some 2,000,000 lexemes, those of the file's first 44 lines and the first 201 brackets are read.
    expect(lexemes.mock.calls.length).toBeLessThan(1000);
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
