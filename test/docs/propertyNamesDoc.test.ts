import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ToolDeclarationError, defineTool } from '../../src/index.js';
import { caught } from '../support/caught.js';

// docs/tools.md, 'Property names', shows how names the Messages API refuses are renamed (`DateSent<` → `DateSent_lt`)
// and what defineTool says of one it refuses: held here to what the code does.

const doc = readFileSync('docs/tools.md', 'utf8');
const section = doc.slice(doc.indexOf('### Property names'), doc.indexOf('### Patterns run in linear time'));
const renamings = [...section.matchAll(/`([^`]+)`\s+→\s+`([^`]+)`/g)].map((match) => [match[1]!, match[2]!] as const);

describe("docs/tools.md, 'Property names'", () => {
  it('shows renamings', () => {
    expect(renamings.length).toBeGreaterThanOrEqual(7);
  });

  it.each(renamings)('renames %j to %j, as it says', (declared, shown) => {
    const tool = defineTool({
      name: 't',
      description: 'T.',
      input: { type: 'object', properties: { [declared]: { type: 'string' } } },
      renameUnsafeProperties: true,
      run: () => 'ok',
    });
    expect(tool.wireNames).toEqual({ [shown]: declared });
  });

  it('suggests the safe name it says, and refuses with the code it names', () => {
    const error = caught(
      () =>
        defineTool({
          name: 't',
          description: 'T.',
          input: { type: 'object', properties: { 'DateSent<': { type: 'string' } } },
          run: () => 'ok',
        }),
      ToolDeclarationError,
    );
    expect(section).toContain(`\`${error.code}\`, at \`input.properties.<name>\``);
    expect(error.path).toBe('input.properties.DateSent<');
    expect(section).toContain('(`DateSent<`:\n  `DateSent_lt`)');
    expect(error.message).toContain("e.g. to 'DateSent_lt'");
  });
});
