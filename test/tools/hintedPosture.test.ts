// The one rule from MCP hints to legate's flags (src/tools/hintedPosture.ts), and its two users agreeing on it:
// mcpTools (a server's hints, `flags` over them) and the audit (declared or recorded hints, names over them).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveDeclarations } from '../../src/guard/auditDeclarations.js';
import { flagsOf } from '../../src/mcp/mcpFlags.js';
import { postureOf } from '../../src/tools/hintedPosture.js';

const maybe = fc.option(fc.boolean(), { nil: undefined });
const hints = fc
  .record({ readOnlyHint: maybe, destructiveHint: maybe, openWorldHint: maybe })
  .map((all) => Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined)));

describe('postureOf: what MCP hints prove', () => {
  it('untrusted whatever the hints unless marked; privileged unless read-only, always when destructive', () => {
    fc.assert(
      fc.property(hints, maybe, maybe, (given, untrusted, privileged) => {
        const marks = {
          ...(untrusted === undefined ? {} : { untrusted }),
          ...(privileged === undefined ? {} : { privileged }),
        };
        const posture = postureOf(given, marks);
        expect(posture.untrusted).toBe(untrusted ?? true);
        expect(posture.decidedBy.untrusted).toBe(untrusted === undefined ? 'default' : 'flag');
        const hinted = given.destructiveHint === true || given.readOnlyHint !== true;
        expect(posture.privileged).toBe(privileged ?? hinted);
        const cause =
          privileged !== undefined
            ? 'flag'
            : given.destructiveHint === true
              ? 'destructiveHint'
              : given.readOnlyHint === undefined
                ? 'default'
                : 'readOnlyHint';
        expect(posture.decidedBy.privileged).toBe(cause);
      }),
    );
  });

  it('mcpTools and the audit read the same hints the same way, a hand-set flag and a name alike', () => {
    const mark = fc.constantFrom('untrusted', 'trusted', undefined);
    fc.assert(
      fc.property(hints, mark, fc.boolean(), (given, named, privileged) => {
        const flags = flagsOf(
          { name: 't', inputSchema: { type: 'object' }, annotations: given },
          {
            ...(named === undefined ? {} : { untrusted: named === 'untrusted' }),
            ...(privileged ? { privileged: true } : {}),
          },
        );
        const declarations = {
          annotations: { t: given },
          ...(named === undefined ? {} : { [named]: ['t'] }),
          ...(privileged ? { privileged: ['t'] } : {}),
        };
        const facts = resolveDeclarations(declarations, ['t']).tools.get('t')!;
        expect({ untrusted: facts.untrusted, privileged: facts.privileged }).toEqual(flags);
      }),
    );
  });
});
