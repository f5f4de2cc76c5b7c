import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ATTRIBUTES } from '../../src/telemetry/attributeNames.js';

/** The attribute table of docs/scale.md's "OpenTelemetry traces" section: name, spans, whether content. */
function documented(): { name: string; spans: string[]; content: boolean }[] {
  const page = readFileSync('docs/scale.md', 'utf8');
  const section = page.slice(page.indexOf('## OpenTelemetry traces'));
  return [...section.matchAll(/^\| `([a-z_.]+)` \| ([a-z_, ]+) \| (.*) \|$/gm)].map(([, name, spans, about]) => ({
    name: name!,
    spans: spans!.split(', '),
    content: about!.startsWith('content'),
  }));
}

describe('the span attributes, named in one table', () => {
  it('docs/scale.md lists exactly the attributes the code sets, on the same spans, content marked as such', () => {
    const code = Object.values(ATTRIBUTES).map((spec) => ({
      name: spec.name,
      spans: [...spec.spans],
      content: 'content' in spec,
    }));
    expect(documented()).toEqual(code);
  });

  it('names each attribute once, the conventions under gen_ai. (and error.type), legate its own under legate.', () => {
    const names = Object.values(ATTRIBUTES).map((spec) => spec.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^(gen_ai\.|legate\.|error\.type$)/);
  });
});
