// A module for `legate fuzz` tests: one sound tool, and one whose binder coerces strings to numbers.
import { defineTool, type AnyTool } from '../../src/index.js';

export const sound = defineTool({
  name: 'sound',
  description: 'A sound tool.',
  input: { type: 'object', properties: { count: { type: 'integer', minimum: 0 } }, required: ['count'] },
  run: ({ count }) => String(count),
});

const base = defineTool({
  name: 'coercing',
  description: 'A tool with a broken binder.',
  input: { type: 'object', properties: { count: { type: 'integer', minimum: 0 } }, required: ['count'] },
  run: ({ count }) => String(count),
});

export const coercing: AnyTool = Object.assign(Object.create(null) as object, base, {
  bind: (input: unknown) => {
    const record = input as { count?: unknown };
    if (typeof input === 'object' && input !== null && typeof record.count === 'string')
      return base.bind({ ...record, count: Number(record.count) });
    return base.bind(input);
  },
});
