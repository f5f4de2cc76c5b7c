import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { McpPinError } from '../../src/mcp/index.js';
import { flagsOf } from '../../src/mcp/mcpFlags.js';
import { checkPins, readPins, writePins } from '../../src/mcp/mcpPins.js';
import type { McpToolDefinition } from '../../src/mcp/mcpToolDefinition.js';
import { useTempDir } from '../support/tempDir.js';
import { jsonData } from '../support/jsonData.js';

const tempDir = useTempDir();

const hints = fc.record(
  {
    title: fc.string(),
    readOnlyHint: fc.boolean(),
    destructiveHint: fc.boolean(),
    idempotentHint: fc.boolean(),
    openWorldHint: fc.boolean(),
  },
  { requiredKeys: [] },
);

const definition: fc.Arbitrary<McpToolDefinition> = fc.record(
  {
    name: fc.stringMatching(/^[a-z_]{1,12}$/),
    title: fc.string(),
    description: fc.string(),
    inputSchema: fc.record({
      type: fc.constant('object'),
      properties: fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), jsonData({ maxDepth: 3 })),
    }),
    annotations: hints,
  },
  { requiredKeys: ['name', 'inputSchema'] },
);
const definitions = fc.uniqueArray(definition, { selector: (d) => d.name, maxLength: 5 });

/** The same value with every object's keys in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, item]) => [key, reversedKeys(item)]),
  );
}

describe('pin files', () => {
  it('read back what was written, and write the same bytes whatever order the keys came in', () => {
    fc.assert(
      fc.property(definitions, (pinned) => {
        const file = join(tempDir(), 'pins.json');
        writePins(file, pinned);
        const text = readFileSync(file, 'utf8');
        expect(readPins(file)).toEqual(pinned);
        writePins(file, reversedKeys(pinned) as McpToolDefinition[]);
        expect(readFileSync(file, 'utf8')).toBe(text);
      }),
      { numRuns: 60 },
    );
  });

  it('pass an unchanged server and name every changed or missing tool with where it changed', () => {
    const change = fc.constantFrom('description', 'schema', 'hint', 'gone');
    fc.assert(
      fc.property(
        definitions.filter((list) => list.length > 0),
        fc.nat(),
        change,
        (pinned, pick, how) => {
          expect(() => checkPins('pins.json', pinned, reversedKeys(pinned) as McpToolDefinition[])).not.toThrow();
          const target = pinned[pick % pinned.length]!;
          const changed: McpToolDefinition | undefined =
            how === 'gone'
              ? undefined
              : how === 'description'
                ? { ...target, description: `${target.description ?? ''}!` }
                : how === 'schema'
                  ? { ...target, inputSchema: { ...target.inputSchema, additionalProperties: false } }
                  : {
                      ...target,
                      annotations: { ...target.annotations, readOnlyHint: !target.annotations?.readOnlyHint },
                    };
          const live = pinned.flatMap((tool) => (tool !== target ? [tool] : changed === undefined ? [] : [changed]));
          let thrown: unknown;
          try {
            checkPins('pins.json', pinned, live);
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toBeInstanceOf(McpPinError);
          const { changes, message } = thrown as McpPinError;
          expect(changes.map((c) => c.tool)).toEqual([target.name]);
          const hintPath = target.annotations === undefined ? 'annotations' : 'annotations.readOnlyHint';
          const path = {
            gone: '',
            description: 'description',
            schema: 'inputSchema.additionalProperties',
            hint: hintPath,
          };
          expect(changes[0]!.path).toBe(path[how]);
          expect(message).toContain(`'${target.name}'`);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuse a file mcpTools did not write, saying what is wrong with it', () => {
    const file = join(tempDir(), 'pins.json');
    for (const [text, problem] of [
      ['{', 'not JSON'],
      ['[]', 'not { version, tools }'],
      ['{"version":2,"tools":[]}', 'this legate reads version 1'],
      ['{"version":1,"tools":[{"name":"x"}]}', 'tools[0]'],
    ] as const) {
      writeFileSync(file, text);
      expect(() => readPins(file)).toThrow(
        expect.objectContaining({ code: 'invalid_mcp_pins', message: expect.stringContaining(problem) }),
      );
    }
    expect(readPins(join(tempDir(), 'absent.json'))).toBeUndefined();
  });
});

describe('flags from MCP hints', () => {
  it('untrusted whatever the hints unless marked; privileged unless read-only, or when destructive; flags win', () => {
    const flag = fc.option(fc.boolean(), { nil: undefined });
    fc.assert(
      fc.property(hints, flag, flag, (annotations, untrusted, privileged) => {
        const tool = { name: 't', inputSchema: { type: 'object' }, annotations };
        const flags = flagsOf(tool, {
          ...(untrusted === undefined ? {} : { untrusted }),
          ...(privileged === undefined ? {} : { privileged }),
        });
        // A closed world (openWorldHint: false) says where a tool reaches, not who wrote what it returns.
        expect(flags.untrusted).toBe(untrusted ?? true);
        expect(flags.privileged).toBe(
          privileged ?? (annotations.readOnlyHint !== true || annotations.destructiveHint === true),
        );
      }),
    );
  });
});
